// Request and response plumbing for the sandbox's HTTP face: a body read under a size limit, and answers in
// the hosted service's manner (JSON on success, plain text errors).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The hosted service's content type for error bodies (SEMANTICS.md). */
export const ERROR_CONTENT_TYPE = 'application/plain-text';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type Body = { kind: 'read'; text: string } | { kind: 'too_large' };

/**
 * Reads the body, up to `limit` bytes. A declared length over the limit is refused before a byte is read;
 * otherwise reading stops at the first byte past the limit, with nothing kept.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Body> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too_large' });
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
      if (size > limit) {
        stop();
        chunks = [];
        resolve({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve({ kind: 'read', text: Buffer.concat(chunks).toString('utf8') });
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

export function jsonAnswer(value: unknown, status = 200): Answer {
  return { status, contentType: JSON_CONTENT_TYPE, body: JSON.stringify(value) };
}

export function errorAnswer(status: number, message: string, headers?: Record<string, string>): Answer {
  return headers ? { status, contentType: ERROR_CONTENT_TYPE, body: message, headers } : { status, contentType: ERROR_CONTENT_TYPE, body: message };
}

export function send(response: ServerResponse, answer: Answer): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(answer.status, {
    'content-type': answer.contentType,
    'content-length': Buffer.byteLength(answer.body),
    ...answer.headers,
  });
  response.end(answer.body);
}
