// A request body whose last field is a list too long to hold in memory (setImpactedTargets from a file): the JSON
// of the rest of the body, with the list's items written out one chunk at a time as the socket takes them.
import type { ListTail } from '../model/service.js';
import type { StreamedBody } from './wire.js';

const CHUNK_CHARS = 64 * 1024;
const TRACE_HEAD = 4096;

/** `json` (an object whose last field is an array) with the tail's items after that array's own items. */
export async function withListTail(json: string, tail: ListTail): Promise<StreamedBody> {
  if (!json.endsWith(']}')) throw new Error('the streamed list must be the last field of the body');
  const before = json.slice(0, -2);
  const separator = json.endsWith('[]}') || tail.count === 0 ? '' : ',';
  const after = ']}';
  const chunks = async function* (): AsyncGenerator<Buffer> {
    let pending = before + separator;
    let first = true;
    for await (const batch of tail.batches()) {
      if (batch.length === 0) continue;
      pending += (first ? '' : ',') + JSON.stringify(batch).slice(1, -1);
      first = false;
      if (pending.length >= CHUNK_CHARS) {
        yield Buffer.from(pending);
        pending = '';
      }
    }
    yield Buffer.from(pending + after);
  };
  return {
    bytes: Buffer.byteLength(before) + separator.length + tail.jsonBytes + after.length,
    length: before.length + separator.length + tail.jsonLength + after.length,
    head: await head(chunks()),
    chunks,
  };
}

/** The body's first characters, for the trace; the reading stops there. */
async function head(chunks: AsyncGenerator<Buffer>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) {
    text += chunk.toString('utf8');
    if (text.length >= TRACE_HEAD) break;
  }
  return text.slice(0, TRACE_HEAD);
}
