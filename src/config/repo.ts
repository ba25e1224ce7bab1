// Repositories as text: what a user types after -R ("[host/]owner/name"), and what `git remote` holds (https,
// ssh:// and scp-like URLs). Both end as the service's `Repo`.
import type { Repo } from '../model/repository.js';
import { safeLine } from '../text/sanitize.js';

export const DEFAULT_HOST = 'github.com';
export const REPO_HINT = '"owner/name" or "host/owner/name"';

const SEGMENT = /^[A-Za-z0-9_.-]+$/;
const HOST = /^[A-Za-z0-9.-]+(:\d+)?$/;

function isSegment(text: string): boolean {
  return SEGMENT.test(text) && text !== '.' && text !== '..';
}

/** A URL's scheme, then `//`; both cases spelt out, since an `i` flag has V8 fold cases through ICU as it compiles (¼ ms of every start). */
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/** A repository from "[host/]owner/name" or a repository URL, or a sentence saying what is wrong. */
export function repoFrom(text: string): { ok: true; value: Repo } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (URL_SCHEME.test(trimmed) || /^[^/\s]+@[^/\s]+:/.test(trimmed)) {
    // A pasted clone or browser URL: take it for what it names, as `gh -R` does.
    const repo = parseRemoteUrl(trimmed);
    return repo ? { ok: true, value: repo } : { ok: false, problem: `must be ${REPO_HINT}, or a repository URL` };
  }
  const parts = trimmed.split('/');
  const [host, owner, named] = parts.length === 2 ? [DEFAULT_HOST, ...parts] : parts;
  // `acme/widgets.git`, as a clone URL ends, is acme/widgets: no host takes a repository name ending in .git, and
  // each API would otherwise read it its own way (v1 as another repository, v2's URL lookup as this one).
  const name = named?.replace(/\.git$/, '');
  if (parts.length < 2 || parts.length > 3 || !host || !owner || !name) {
    return { ok: false, problem: `must be ${REPO_HINT}` };
  }
  if (!HOST.test(host) || !isSegment(owner) || !isSegment(name)) {
    return { ok: false, problem: `must be ${REPO_HINT}, each part letters, digits, '.', '-' or '_'` };
  }
  return { ok: true, value: { host: host.toLowerCase(), owner, name } };
}

export function formatRepo(repo: Repo): string {
  return `${repo.host}/${repo.owner}/${repo.name}`;
}

/** As a person writes it after -R: `owner/name`, with the host only when it is not github.com. */
export function shortRepo(repo: Repo): string {
  return repo.host === DEFAULT_HOST ? `${repo.owner}/${repo.name}` : formatRepo(repo);
}

/** `main of acme/widgets`: the repository too, since mq may have inferred it and the person works across many; the host only when not github.com. */
export function queueName(branch: string, repo?: Repo): string {
  return repo ? `${safeLine(branch)} of ${safeLine(shortRepo(repo))}` : safeLine(branch);
}

/**
 * The repository a git remote URL points at: https://host/owner/name(.git), ssh://[user@]host[:port]/owner/name, git://…, scp-like
 * [user@]host:owner/name; undefined for anything else. Credentials and ports are dropped: the service knows a repository by its host name.
 */
export function parseRemoteUrl(url: string): Repo | undefined {
  const text = url.trim();
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(text);
  if (URL_SCHEME.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return undefined;
    }
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(parsed.protocol)) return undefined;
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  } else if (scp?.[1] && scp[2]) {
    host = scp[1];
    path = scp[2];
  } else {
    return undefined;
  }
  // GitHub's "SSH over the HTTPS port" host is github.com under another name.
  if (host.toLowerCase() === 'ssh.github.com') host = DEFAULT_HOST;
  const segments = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (segments.length !== 2) return undefined;
  const [owner, name] = segments as [string, string];
  if (!host || !HOST.test(host) || !isSegment(owner) || !isSegment(name)) return undefined;
  return { host: host.toLowerCase(), owner, name };
}
