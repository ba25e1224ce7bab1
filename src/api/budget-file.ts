// budget.ts's state shared by every mq process with one credential, in a file of mq's cache (named by a hash, holding only times), changed
// under a lock file (one older than 2s is a dead process's). A file that cannot be used fails nothing: the process keeps its own budget.
import { closeSync, constants, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_PAUSE_MS, openRegular, takeLock } from '../cache-file.js';
import { type BudgetState, type BudgetStore, COUNTS, freshBudget, memoryStore } from './budget.js';
import { systemErrorWords } from '../errors.js';

/** The file is rewritten in place at this size, padded with spaces: never truncated, which some file systems flush. */
const RECORD_BYTES = 1_024;

/** The budget file of a credential at a service, in `folder`. */
export function budgetFile(folder: string, apiUrl: string, token: string): string {
  return join(folder, `budget-${hash64(`${apiUrl}\n${token}`)}.json`);
}

/** 64 bits of cyrb53's mixing, from which the credential cannot be read back; node:crypto costs tens of milliseconds to load. */
function hash64(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h2, h1].map((half) => (half >>> 0).toString(16).padStart(8, '0')).join('');
}

/** The budget kept in `path`; `say` is told (once) when the file cannot be used, or held something else. */
export function fileStore(path: string, say: (line: string) => void): BudgetStore {
  const lock = `${path}.lock`;
  let last = freshBudget();
  let own: BudgetStore | undefined;
  let toldElse = false;
  return {
    update(change) {
      if (own) return own.update(change);
      let answer: number | undefined;
      try {
        if (!takeLock(lock)) return LOCK_PAUSE_MS;
        try {
          // Anything but a regular file there (a FIFO would block the read, a device answer for ever) cannot be used.
          const { fd } = openRegular(path, constants.O_RDWR | constants.O_CREAT, 0o600);
          try {
            const buffer = Buffer.alloc(RECORD_BYTES);
            const text = buffer.toString('utf8', 0, readSync(fd, buffer, 0, RECORD_BYTES, 0)).trim();
            const read = text === '' ? freshBudget() : stateOf(text);
            if (!read && !toldElse) say(`the request budget file ${path} held something else: it is started afresh`);
            toldElse ||= !read;
            last = read ?? freshBudget();
            answer = change(last);
            writeSync(fd, JSON.stringify(last).padEnd(RECORD_BYTES), 0);
          } finally {
            closeSync(fd);
          }
        } finally {
          unlinkSync(lock);
        }
        return answer;
      } catch (error) {
        say(`the request budget file ${path} cannot be used (${systemErrorWords(error)}): this process keeps its own budget`);
        own = memoryStore(last);
        return answer ?? own.update(change);
      }
    },
  };
}

/** The state the file holds, or undefined for anything else. */
function stateOf(text: string): BudgetState | undefined {
  let state: BudgetState;
  try {
    state = JSON.parse(text) as BudgetState;
  } catch {
    return undefined;
  }
  const times = (value: unknown) => Array.isArray(value) && value.every(Number.isFinite);
  if (typeof state !== 'object' || state === null || typeof state.sent !== 'object' || state.sent === null) return undefined;
  if (!COUNTS.every((count) => times(state.sent[count]))) return undefined;
  const slowed = state.slowed;
  if (slowed !== undefined && !(slowed.share > 0 && slowed.share <= 1 && Number.isFinite(slowed.since))) return undefined;
  return state;
}
