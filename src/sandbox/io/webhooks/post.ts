// One delivery attempt on the wire, as Svix sends it: POST of the raw JSON body, signed for this attempt.
import * as http from 'node:http';
import * as https from 'node:https';
import { sign } from '../../../model/webhook-signature.js';
import { VERSION } from '../../../version.js';

/** An attempt not answered within this long (real time) failed, as on Svix. */
const ANSWER_WITHIN_MS = 15_000;
const USER_AGENT = `mq-sandbox-webhooks/${VERSION}`;
/** One sandbox's kept-alive connections, as many as an endpoint may have in flight (delivery.ts bounds that):
 *  its own, not the process's, so that closing it closes them and leaves another sandbox's alone. */
export class Connections {
  private readonly agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  of(protocol: string): http.Agent | undefined {
    return this.agents[protocol as keyof typeof this.agents];
  }

  /** Closes them all, idle or in use; a post after this opens new ones (none is made: delivery has stopped). */
  destroy(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }
}

export interface Posted {
  /** null: no answer (refused, reset, timed out). */
  status: number | null;
  latencyMs: number | null;
  /** The receiver's `webhook-delivery` answer header: `abort-message` or `disable`. */
  control: string | undefined;
}

/** Never rejects. `svix-timestamp` is the wall clock's, not the sandbox's: receivers check it against theirs.
 *  `stopped` cuts it short (no answer): a receiver that never answers must not hold a stopping sandbox for 15 s. */
export function post(url: string, key: Buffer, id: string, text: string, stopped: AbortSignal, connections: Connections): Promise<Posted> {
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(text);
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (status: number | null, control?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status, latencyMs: status === null ? null : Math.round(performance.now() - started), control });
    };
    let request: http.ClientRequest;
    try {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? https : http;
      request = client.request(target, {
        method: 'POST',
        agent: connections.of(target.protocol),
        signal: stopped,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': USER_AGENT,
          'svix-id': id,
          'svix-timestamp': String(timestamp),
          'svix-signature': sign(key, id, timestamp, body),
        },
      });
    } catch {
      finish(null);
      return;
    }
    timer = setTimeout(() => {
      request.destroy();
      finish(null);
    }, ANSWER_WITHIN_MS);
    timer.unref();
    request.on('error', () => finish(null));
    request.on('response', (response) => {
      const control = response.headers['webhook-delivery'];
      response.on('error', () => finish(null));
      response.on('end', () => finish(response.statusCode ?? null, typeof control === 'string' ? control.trim().toLowerCase() : undefined));
      response.resume();
    });
    request.end(body);
  });
}
