// Answers to reads of both faces, by route and request (v1's body, v2's target), kept until the state may have
// changed: a polling client sends the same bytes again and again.
import type { Answer } from './http.js';

/** Requests longer than this are not kept: polls are small, and the key is the request itself. */
const MAX_KEY_LENGTH = 2048;
/** Bounds on what is kept, so that clients sending ever new bodies cannot grow it without end. */
const MAX_ENTRIES = 1024;
const MAX_BYTES = 16 * 1024 * 1024;

export class ReadCache {
  private readonly byRoute = new Map<object, Map<string, Answer>>();
  private entries = 0;
  private bytes = 0;

  get(route: object, body: string): Answer | undefined {
    return this.entries === 0 ? undefined : this.byRoute.get(route)?.get(body);
  }

  set(route: object, body: string, answer: Answer): void {
    if (body.length > MAX_KEY_LENGTH) return;
    const size = body.length + answer.body.length;
    if (size > MAX_BYTES) return;
    if (this.entries >= MAX_ENTRIES || this.bytes + size > MAX_BYTES) this.clear();
    let answers = this.byRoute.get(route);
    if (!answers) this.byRoute.set(route, (answers = new Map()));
    answers.set(body, answer);
    this.entries++;
    this.bytes += size;
  }

  clear(): void {
    if (this.entries === 0) return;
    this.byRoute.clear();
    this.entries = 0;
    this.bytes = 0;
  }
}
