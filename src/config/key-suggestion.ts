// "did you mean" for an unknown key of a config file: the key people meant when they wrote the flag's name
// (`branch` for -b/--branch), another tool's word for it (`url`), or a slip of the keyboard (`targetBrnach`).

/** Words a user may reach for, by their normal form (see `normal`), and the key each one means. */
const ALIASES: Record<string, string> = {
  branch: 'targetBranch',
  base: 'targetBranch',
  basebranch: 'targetBranch',
  target: 'targetBranch',
  url: 'apiUrl',
  api: 'apiUrl',
  baseurl: 'apiUrl',
  endpoint: 'apiUrl',
  server: 'apiUrl',
  repository: 'repo',
  organization: 'org',
  organisation: 'org',
  format: 'output',
  o: 'output',
  r: 'repo',
  b: 'targetBranch',
  profile: 'profiles',
  apitoken: 'token',
  trunkapitoken: 'token',
  tokencmd: 'tokenCommand',
  tokenpath: 'tokenFile',
  trustedurls: 'trustedApiUrls',
  schema: '$schema',
};

/** Case, dashes, underscores and a leading `mq_` do not matter: `api-url`, `API_URL` and the variable's name are apiUrl. */
function normal(key: string): string {
  return key
    .toLowerCase()
    .replace(/[-_\s.]/g, '')
    .replace(/^mq(?=.)/, '');
}

/** The key of `known` that `key` most likely meant, if any is near enough to say so. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const written = normal(key);
  const alias = ALIASES[written];
  if (alias !== undefined && known.includes(alias)) return alias;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(written, normal(candidate));
    if (distance < (best?.distance ?? Infinity)) best = { key: candidate, distance };
  }
  // One slip in a short word, two in a longer one: further than that is a different word, not a typo.
  const allowed = written.length <= 4 ? 1 : written.length <= 8 ? 2 : 3;
  return best !== undefined && best.distance <= allowed ? best.key : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
