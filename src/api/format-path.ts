// Where in a document a problem is, as an error message shows it; and a zod failure as one such line. Read by
// the client, the settings and the sandbox alike.
import type * as z from 'zod';

/** A path as an error message shows it: `enqueuedPullRequests[0].prNumber`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

/** A zod failure as one line naming each field: `enqueuedPullRequests[0].prNumber: missing`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = formatPath(issue.path);
      const missing = issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
      const what = missing ? 'missing' : issue.message;
      return where ? `${where}: ${what}` : what;
    })
    .join('; ');
}
