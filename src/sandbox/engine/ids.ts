// Deterministic identifiers: the same seed and counter give the same id on every run, so a sandbox driven by
// the same requests on a manual clock answers byte for byte the same.
import { sha256Hex } from './digest.js';

/** A UUID (version 4 layout, so strict validators accept it) derived from a seed and a counter. */
export function deterministicUuid(seed: string, counter: number): string {
  const hex = sha256Hex(`${seed}:${counter}`);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A repository's id: a UUID of version 4 layout from its coordinates ; the same coordinates, the same id. */
export function repositoryId(repo: { host: string; owner: string; name: string }): string {
  return remembered(`repository:${repo.host}/${repo.owner}/${repo.name}`);
}

/** Ids asked for again and again (every answer names its PR and repository): each digest made once. */
const REMEMBERED = new Map<string, string>();
const REMEMBERED_MAX = 100_000;

function remembered(name: string): string {
  let id = REMEMBERED.get(name);
  if (id === undefined) {
    id = deterministicUuid(name, 0);
    if (REMEMBERED.size >= REMEMBERED_MAX) REMEMBERED.clear();
    REMEMBERED.set(name, id);
  }
  return id;
}

/** v2's `PullRequest.id`, from its coordinates: stable without being stored. Not its queue entry's id. */
export function pullRequestId(repo: { host: string; owner: string; name: string }, number: number): string {
  return remembered(`pull-request:${repo.host}/${repo.owner}/${repo.name}#${number}`);
}

const QUEUE_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A queue id as the service's look: 8 letters and digits (`xK9mP2nQ`), derived from a seed, a counter and the
 * queue's coordinates (its key). The coordinates are what keep an id from ever naming another queue: a manual
 * clock's sandbox starts from the same seed and counter every run and after every reset(), and a client that kept
 * an id (mq keeps them by address) read the queue made first after it, whatever its repository, as the one it had
 * kept. The same queue made again after a reset gets its old id back, which names it still. Without a key: the ids
 * given to the queues of a state written before they had any (state.ts, upgrade 4), kept as they were made.
 */
export function deterministicQueueId(seed: string, counter: number, key?: string): string {
  const hex = sha256Hex(key === undefined ? `${seed}:queue:${counter}` : `${seed}:queue:${key}:${counter}`);
  let id = '';
  // Each letter from 32 bits of the digest: the bias of the modulo is far below anything a test could see.
  for (let i = 0; i < 8; i++) id += QUEUE_ID_ALPHABET[parseInt(hex.slice(i * 8, i * 8 + 8), 16) % QUEUE_ID_ALPHABET.length];
  return id;
}
