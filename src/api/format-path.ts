// Where in a document a problem is, as an error message shows it.

/** A path as an error message shows it: `enqueuedPullRequests[0].prNumber`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}
