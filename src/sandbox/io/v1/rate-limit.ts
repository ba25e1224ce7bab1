// v1's rate limit, in the bucket v2's face counts the same organization's requests in: the organization is the
// owner of the repository the request names (the body's `repo`, or the repository of its `repoId`; the metrics'
// `repo` query); requests that name none share one bucket. Past it, the edge's 429 in plain text, with Retry-After.
import { RATE_BUCKET } from '../../../api/v1/endpoints.js';
import { RATE_LIMITS } from '../../../api/v2/contract.js';
import type { QueueEngine } from '../../engine/engine.js';
import type { Answer } from '../http.js';
import { NO_ORGANIZATION, organizationNamed, type RateLimiter } from '../rate-limits.js';
import { type ParsedBody, readJson } from '../route.js';

const SEEN_MAX = 1_000;
/** Longer bodies are writes with lists, not polls: not kept. */
const SEEN_BODY_MAX = 2_048;

/** Counts a v1 request; the 429 when its organization is past the limit, else the body as read to find it (if it was). */
export type AdmitV1 = (engine: QueueEngine, body: string, query: URLSearchParams) => { answer: Answer } | { parsed?: ParsedBody };

/**
 * One sandbox's admission of v1 requests to `limiter`. The organizations of bodies seen lately are its own (a body
 * naming a repository by id names another one's in another sandbox): a client polls with the same bytes, which
 * need not be read again for it.
 */
export function v1Admission(limiter: RateLimiter): AdmitV1 {
  const seen = new Map<string, string>();
  return (engine, body, query) => admit(limiter, seen, engine, body, query);
}

function admit(
  limiter: RateLimiter,
  seen: Map<string, string>,
  engine: QueueEngine,
  body: string,
  query: URLSearchParams,
): { answer: Answer } | { parsed?: ParsedBody } {
  let owner = seen.get(body);
  let parsed: ParsedBody | undefined;
  if (owner === undefined) {
    parsed = body === '' ? undefined : readJson(body);
    const named = parsed ? ownerInBody(parsed.json, engine) : ownerInQuery(query);
    if (named !== undefined && body !== '' && body.length <= SEEN_BODY_MAX) {
      if (seen.size >= SEEN_MAX) seen.clear();
      seen.set(body, named);
    }
    owner = named;
  }
  const organization = owner === undefined ? NO_ORGANIZATION : organizationNamed(owner);
  if (!limiter.admit(RATE_BUCKET, organization)) {
    const seconds = limiter.secondsUntilFree(RATE_BUCKET, organization);
    const whose = owner === undefined ? 'requests naming no repository' : `the organization ${owner}`;
    return {
      answer: {
        status: 429,
        contentType: 'text/plain',
        // When to try again is the Retry-After header's alone: a client that waits longer than it says (mq's backoff)
        // would otherwise quote two times.
        body: `rate limited: over ${RATE_LIMITS[RATE_BUCKET]} requests a second for ${whose}`,
        headers: { 'retry-after': String(seconds) },
      },
    };
  }
  return parsed ? { parsed } : {};
}

function ownerInBody(json: unknown, engine: QueueEngine): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { repo, repoId } = json as { repo?: unknown; repoId?: unknown };
  const owner = typeof repo === 'object' && repo !== null ? (repo as { owner?: unknown }).owner : undefined;
  if (typeof owner === 'string' && owner !== '') return owner;
  return typeof repoId === 'string' ? engine.repositoryWithId(repoId)?.owner : undefined;
}

/** getMergeQueueMetrics names a repository as `repo=owner/name`. */
function ownerInQuery(query: URLSearchParams): string | undefined {
  return /^([^/\s]+)\//.exec(query.get('repo') ?? '')?.[1];
}
