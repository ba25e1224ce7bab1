// Request and response plumbing, in the hosted service's manner (JSON on success, plain text errors).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { BODY_LIMIT_BYTES } from '../../model/vocabulary.js';
import { briefWords } from '../../text/brief.js';

export const ERROR_CONTENT_TYPE = 'application/plain-text';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The body's text, or the 413 past the service's limit: a declared length over it is refused before a byte is read. */
export function readBody(request: IncomingMessage): Promise<string | Answer> {
  // The connection closes after it: the rest of the body is not read.
  const tooLarge = () => errorAnswer(413, `the request body is over the ${BODY_LIMIT_BYTES / 1024 / 1024} MiB limit`, { connection: 'close' });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > BODY_LIMIT_BYTES) return Promise.resolve(tooLarge());
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        stop();
        chunks = [];
        resolve(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      const whole = Buffer.concat(chunks);
      // The pieces go before the text is made: a 20 MiB body is held twice at most, not three times.
      chunks = [];
      resolve(whole.toString('utf8'));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** Whether a request came from Terraform or OpenTofu (`User-Agent` or `X-Source`): the writer of a queue, for `managedState`. */
export function fromTerraform(request: IncomingMessage): boolean {
  return /terraform|opentofu/i.test(`${request.headers['user-agent'] ?? ''} ${request.headers['x-source'] ?? ''}`);
}

export function jsonAnswer(value: unknown, status = 200): Answer {
  return { status, contentType: JSON_CONTENT_TYPE, body: JSON.stringify(value) };
}

export function errorAnswer(status: number, message: string, headers?: Record<string, string>): Answer {
  const body = briefWords(message);
  return headers ? { status, contentType: ERROR_CONTENT_TYPE, body, headers } : { status, contentType: ERROR_CONTENT_TYPE, body };
}

/** Sends the answer; `date` (an HTTP date) goes out as the Date header unless the answer sets its own. */
export function send(response: ServerResponse, answer: Answer, date?: string): void {
  if (response.headersSent || response.destroyed) return;
  const headers: Record<string, string | number> = { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(answer.body) };
  if (date !== undefined) headers.date = date;
  response.writeHead(answer.status, answer.headers ? Object.assign(headers, answer.headers) : headers);
  response.end(answer.body);
}

let lastDateSecond = NaN;
let lastDate = '';

/** An instant as an HTTP date (what Date#toUTCString gives), made once a second rather than once a request. */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastDateSecond) {
    lastDateSecond = second;
    lastDate = new Date(second * 1000).toUTCString();
  }
  return lastDate;
}

/** The target as a URL (origin or absolute form); undefined for anything else (`*`, `host:port`, unparsable). */
export function requestTarget(target: string | undefined): URL | undefined {
  if (target === undefined || target === '') return undefined;
  try {
    // Prefixed rather than resolved, so a path starting with // stays a path.
    if (target.startsWith('/')) return new URL(`http://sandbox${target}`);
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** How long a connection is kept open after an answer that left the request unread, at most. */
const LINGER_MS = 2000;

// Closes the connection once the answer is out without a reset under a client still sending (which could lose the
// answer to an EPIPE or ECONNRESET): ends its side, drops what still comes, closes after LINGER_MS at most.
export function lingerThenClose(socket: Duplex, lastWords?: string): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  socket.end(lastWords);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

const lingering = new WeakSet<Duplex>();

/** A request node:http could not parse: answered in the sandbox's manner, then closed. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (lingering.has(socket)) return;
  // As node:http itself decides: an answer already under way on this connection must not be corrupted.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason] = CLIENT_ERROR_STATUS.get(error.code ?? '') ?? [400, 'Bad Request'];
  const body = `malformed request: ${error.message.replace(/[^\x20-\x7e]/g, '?')}`;
  lingerThenClose(
    socket,
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${ERROR_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const CLIENT_ERROR_STATUS = new Map<string, [number, string]>([
  ['HPE_HEADER_OVERFLOW', [431, 'Request Header Fields Too Large']],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', [413, 'Payload Too Large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'Request Timeout']],
]);
