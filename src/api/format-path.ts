// Where in a document a problem is, as an error message shows it; and a zod failure as one such line. Read by the client, the settings and the sandbox.
import type * as z from 'zod';

/** A path as an error message shows it: `enqueuedPullRequests[0].prNumber`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

const ISSUES_SHOWN = 5;

/** A zod failure as one line naming the first few fields: `enqueuedPullRequests[0].prNumber: missing` (v2's face: `required`). */
export function describeIssues(error: z.ZodError, missing = 'missing'): string {
  const { issues } = error;
  const described = issues
    .slice(0, ISSUES_SHOWN)
    .map((issue) => {
      const where = formatPath(issue.path);
      const what =
        issue.code === 'invalid_type' && / received undefined$/.test(issue.message)
          ? missing
          : issue.code === 'unrecognized_keys'
            ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
            : issue.message;
      return where ? `${where}: ${what}` : what;
    })
    .join('; ');
  return issues.length > ISSUES_SHOWN ? `${described}; and ${issues.length - ISSUES_SHOWN} more` : described;
}
