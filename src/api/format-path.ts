// Where in a document a problem is, as an error message shows it; and a zod failure as one such line. Read by the client, the settings and the sandbox.
import type * as z from 'zod';

/**
 * A key that is the document's own text (not a name of its schema), told by where it is instead (`line 4`):
 * a file's text may hold a secret, and an error message must not quote it.
 */
export type HideKey = (key: string) => string | undefined;

/** A path as an error message shows it: `enqueuedPullRequests[0].prNumber`; a hidden key as `[line 4]`. */
export function formatPath(path: readonly PropertyKey[], hide?: HideKey): string {
  return path
    .map((key, i) => {
      const hidden = typeof key === 'string' ? hide?.(key) : undefined;
      if (hidden !== undefined) return `[${hidden}]`;
      return typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`;
    })
    .join('');
}

const ISSUES_SHOWN = 5;

/** A zod failure as one line naming the first few fields: `enqueuedPullRequests[0].prNumber: missing` (v2's face: `required`). */
export function describeIssues(error: z.ZodError, missing = 'missing', hide?: HideKey): string {
  const { issues } = error;
  const described = issues
    .slice(0, ISSUES_SHOWN)
    .map((issue) => {
      const where = formatPath(issue.path, hide);
      const what =
        issue.code === 'invalid_type' && / received undefined$/.test(issue.message)
          ? missing
          : issue.code === 'unrecognized_keys'
            ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys
                .map((key) => {
                  const hidden = hide?.(key);
                  return hidden === undefined ? key : `at ${hidden}`;
                })
                .join(', ')}`
            : issue.message;
      return where ? `${where}: ${what}` : what;
    })
    .join('; ');
  return issues.length > ISSUES_SHOWN ? `${described}; and ${issues.length - ISSUES_SHOWN} more` : described;
}
