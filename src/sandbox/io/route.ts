// What a route of the v1 face and of the control routes is (v2's is io/v2/route.ts), and the checks a JSON body
// goes through before the route maps it onto the engine.
import type * as z from 'zod';
import { describeIssues } from '../../api/format-path.js';
import type { Journaled } from '../engine/changes.js';
import type { QueueEngine } from '../engine/engine.js';
import { EngineRefusal, type RefusalKind } from '../engine/types.js';
import { refuseBodyShape, stringListsOf } from './body.js';
import type { SandboxClock } from './clock.js';
import type { DeviceLogins } from './v1/device-login.js';
import type { WebhookDelivery } from './webhooks/delivery.js';
import { errorAnswer, type Answer } from './http.js';
import { IN_ENGLISH } from '../../text/in-english.js';

export interface RouteContext {
  engine: QueueEngine;
  clock: SandboxClock;
  query: URLSearchParams;
  body: string;
  /** A fork's upload: the `x-forked-workflow-run-id` it came with instead of a token. */
  forkedRunId?: string;
  /** Whether the request came from Terraform or OpenTofu (its headers): a queue write then makes the queue Terraform's. */
  fromTerraform?: boolean;
  /** The sandbox's webhook delivery. */
  webhooks?: WebhookDelivery;
  /** The device logins under way (v1's device-auth routes, the `device` control routes). */
  deviceLogins?: DeviceLogins;
  /** The body's JSON, when the face read it already (to find the organization it counts against). */
  parsed?: ParsedBody;
  /** False under `--estimates off`: v1's PR read carries no estimate, as v2's estimate answers 404. */
  estimates?: boolean;
}

/** A body's JSON, as JSON.parse gave it. */
export interface ParsedBody {
  json: unknown;
}

export interface Handled {
  answer: Answer;
  /** Set when the request changed the state: the answer waits until the change is on disk. */
  change?: Journaled;
  /** A read whose answer depends on the clock too (an estimate, a window up to now): never kept for the next. */
  timely?: boolean;
}

export interface Route {
  method: 'GET' | 'POST';
  /** A read: its answer depends on its body and the state alone, so it may be kept until the state changes. */
  isRead?: boolean;
  /** Whether a fork's upload may call it without a token (setImpactedTargets alone, as on the service). */
  forkUploads?: boolean;
  /** Answered without a token, as the service answers `/status`: no token is checked, not even a wrong one. */
  anonymous?: boolean;
  handle(context: RouteContext): Handled;
}

const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409, unprocessable: 422 };

const NO_LISTS: ReadonlySet<string> = new Set();

/** The body's JSON, its shape checked on the text first as `parse` checks it; undefined where `parse` would refuse it. */
export function readJson(body: string): ParsedBody | undefined {
  if (body.trim() === '' || refuseBodyShape(body, NO_LISTS) !== undefined) return undefined;
  try {
    return { json: JSON.parse(body) };
  } catch {
    return undefined;
  }
}

/** The body as JSON (`parsed`: read already), validated against the schema; or the 400 that says why not. */
export function parse<S extends z.ZodType>(schema: S, body: string, parsed?: ParsedBody): { input: z.output<S> } | { answer: Answer } {
  let json: unknown;
  const lists = stringListsOf(schema);
  try {
    if (parsed) json = parsed.json;
    else {
      if (body.trim() === '') return { answer: errorAnswer(400, 'malformed JSON: the request body is empty') };
      const refused = refuseBodyShape(body, lists);
      if (refused) return { answer: errorAnswer(400, `invalid request: ${refused}`) };
      json = JSON.parse(body);
    }
    // A list whose name the text spells with escapes is only known once parsed (and one read already was checked
    // on its text without the lists: its first bad element is found here, in the same words).
    const badElement = firstBadListElement(lists, json);
    if (badElement) return { answer: errorAnswer(400, `invalid request: ${badElement}`) };
  } catch (error) {
    return { answer: errorAnswer(400, `malformed JSON: ${(error as Error).message}`) };
  }
  const checked = schema.safeParse(json, IN_ENGLISH);
  if (!checked.success) return { answer: errorAnswer(400, `invalid request: ${describeIssues(checked.error)}`) };
  return { input: checked.data };
}

/** zod would make one issue per bad element of a list, and a 20 MiB body holds ten million: stop at the first. */
function firstBadListElement(lists: ReadonlySet<string>, json: unknown): string | undefined {
  if (lists.size === 0 || typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  for (const field of lists) {
    const value = Object.hasOwn(json, field) ? (json as Record<string, unknown>)[field] : undefined;
    if (!Array.isArray(value)) continue;
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      if (typeof element === 'string') continue;
      return `${field}[${i}]: expected a string, received ${element === null ? 'null' : Array.isArray(element) ? 'array' : typeof element}`;
    }
  }
  return undefined;
}

/** A refusal from the engine as its status; anything else is the sandbox's own bug, a 500. */
export function answerForError(error: unknown): Answer {
  if (error instanceof EngineRefusal) return errorAnswer(REFUSAL_STATUS[error.kind], error.message);
  return errorAnswer(500, `sandbox error: ${error instanceof Error ? error.message : String(error)}`);
}
