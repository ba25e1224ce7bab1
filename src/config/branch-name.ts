// Branch names as git takes them (`git check-ref-format --branch`), checked without running git: a queue made for a
// name no push can reach would never see a PR. A CI's full ref is read too: `refs/heads/X` ($GITHUB_REF on a push)
// is the branch X, and a pull request's ref is refused, since the queue is the branch it merges into.
import type { Checked } from './values.js';

export const BRANCH_REF_PREFIX = 'refs/heads/';

const EXAMPLE = 'use e.g. main';

/** git's rules, each a pattern matching a refused name from its start, and what it says is wrong. */
const GIT_RULES: readonly (readonly [bad: string, why: string | ((found: string) => string)])[] = [
  ['$', 'it is empty'],
  ['-', 'it begins with "-"'],
  ['/', 'it begins with "/"'],
  ['.*/$', 'it ends with "/"'],
  ['.*\\.$', 'it ends with "."'],
  ['.*//', 'it holds "//"'],
  ['.*\\.\\.', 'it holds ".."'],
  ['.*@\\{', 'it holds "@{"'],
  ['.*?[\\x00-\\x20\\x7f~^:?*[\\\\]', (found) => `it holds ${namedCharacter(found.at(-1) ?? '')}`],
  ['(?:.*/)?\\.', 'it, or a part between slashes, begins with "."'],
  ['.*\\.lock(?:/|$)', 'it, or a part between slashes, ends with ".lock"'],
  ['HEAD$', 'git keeps "HEAD" for the checked-out commit'],
  // Not git's: a ref of another kind is no branch, though git would take it as one of that name.
  ['refs/', 'it is a ref outside refs/heads/, not a branch'],
];

/** The rules as one pattern, for the config file's JSON Schema: a name (after refs/heads/, if it has it) no rule refuses. */
const REFUSED = GIT_RULES.map(([bad]) => `(?:${bad})`).join('|');
export const BRANCH_PATTERN = `^(?:refs/heads/(?!${REFUSED})|(?!refs/heads/)(?!${REFUSED}))`;

/** A branch name, or a full ref to one (left whole here: resolve.ts takes `refs/heads/X` as X, with a note). */
export function checkBranch(text: string): Checked<string> {
  const name = text.startsWith(BRANCH_REF_PREFIX) ? text.slice(BRANCH_REF_PREFIX.length) : text;
  if (name.startsWith('refs/pull/')) {
    return { ok: false, problem: `is a pull request's ref, not a branch; ${EXAMPLE}, or "$GITHUB_BASE_REF" in a pull_request workflow` };
  }
  for (const [bad, why] of GIT_RULES) {
    const match = new RegExp(`^(?:${bad})`).exec(name);
    if (match === null) continue;
    return { ok: false, problem: `is not a valid branch name (${typeof why === 'string' ? why : why(match[0])}); ${EXAMPLE}` };
  }
  return { ok: true, value: text };
}

function namedCharacter(char: string): string {
  return char === ' ' ? 'a space' : char < ' ' || char === '\x7f' ? 'a control character' : `"${char}"`;
}
