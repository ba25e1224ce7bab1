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

type Issue = z.core.$ZodIssue;

/** An issue of a value that is not there: zod's words for it end its message; a union over nothing has one from each option. */
function isAbsent(issue: Issue): boolean {
  if (issue.code === 'invalid_type') return / received undefined$/.test(issue.message);
  return (
    issue.code === 'invalid_union' &&
    'errors' in issue &&
    issue.errors.length > 0 &&
    issue.errors.every((issues) => issues.some((inner) => inner.path.length === 0 && isAbsent(inner)))
  );
}

/** An issue that says the value has a key it should not, or lacks one it should: its shape is another option's. */
const isOtherShape = (issue: Issue) => isAbsent(issue) || (issue.code === 'invalid_type' && issue.expected === 'undefined');

/**
 * The issues a failed union stands for, paths from the root: a union over nothing (every option wants a value) is
 * the field missing; a union where one option alone has the value's shape is that option's issues (`pr.number`
 * for `{pr: {number: "x"}}`), as zod's own "Invalid input" says nothing a person can act on; else the union's.
 */
function explained(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || isAbsent(issue)) return [issue];
  const fitting = issue.errors.filter((issues) => !issues.some(isOtherShape));
  if (fitting.length !== 1) return [issue];
  return fitting[0]!.flatMap((inner) => explained({ ...inner, path: [...issue.path, ...inner.path] }));
}

/**
 * A zod failure as one line naming the first few fields: `enqueuedPullRequests[0].prNumber: missing` (v2's face:
 * `required`); `missing` may say, by the field's path, what to give.
 */
export function describeIssues(error: z.ZodError, missing: string | ((path: readonly PropertyKey[]) => string) = 'missing', hide?: HideKey): string {
  const issues = error.issues.flatMap(explained);
  const described = issues
    .slice(0, ISSUES_SHOWN)
    .map((issue) => {
      const where = formatPath(issue.path, hide);
      const what = isAbsent(issue)
        ? typeof missing === 'string'
          ? missing
          : missing(issue.path)
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
