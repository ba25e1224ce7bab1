// v2's cursor pages: `limit` 1..100 (25 by default), an opaque cursor bound to the operation and the
// filters it was minted with, `includeTotal`, and `{data, nextCursor, hasMore, total?}`. The cursor carries the
// key of the row the next page starts at, so rows added meanwhile do not shift a page.
import { createHash } from 'node:crypto';
import { V2_PAGE_DEFAULT, type PageQuery } from '../../../api/v2/schemas.js';
import { type V2Context, V2Error, type V2Handled } from './route.js';

/** The query parameters that are not filters: they may change from one page to the next. */
const PAGING_PARAMETERS = new Set(['cursor', 'limit', 'includeTotal']);

interface CursorContent {
  o: string;
  /** A digest of the filters. */
  f: string;
  /** The key of the next page's first row. */
  k: string;
  /** What the first page pinned (the testing results' `until`). */
  p?: string;
}

function filtersDigest(operationId: string, query: URLSearchParams): string {
  const filters = [...query.entries()].filter(([name]) => !PAGING_PARAMETERS.has(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([operationId, filters]))
    .digest('base64url')
    .slice(0, 16);
}

function invalidCursor(why: string): V2Error {
  return new V2Error(400, 'INVALID_CURSOR', `cursor: ${why}`);
}

function decode(cursor: string): Partial<CursorContent> | undefined {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorContent>;
  } catch {
    return undefined;
  }
}

/** The `until` a cursor of the testing results pinned (checked in full by the page). */
export function pinnedOf(cursor: string | undefined): number | undefined {
  const pinned = cursor === undefined ? undefined : decode(cursor)?.p;
  return typeof pinned === 'string' && /^\d+$/.test(pinned) ? Number(pinned) : undefined;
}

/** The cursor's content, checked against the operation and filters of this request; undefined on page 1. */
function readCursor(operationId: string, query: URLSearchParams, cursor: string | undefined): CursorContent | undefined {
  if (cursor === undefined) return undefined;
  const content = decode(cursor);
  if (typeof content !== 'object' || content === null || typeof content.k !== 'string' || typeof content.f !== 'string') {
    throw invalidCursor('not a cursor this service gave out');
  }
  if (content.o !== operationId) throw invalidCursor(`it was given out by another operation, not ${operationId}`);
  if (content.f !== filtersDigest(operationId, query)) throw invalidCursor('it was given out with other filters: send the same ones as for the first page');
  return content as CursorContent;
}

/** One page of the matching `rows`, from the cursor's row on, as the answer; `pinned` rides in the cursor after page 1. */
export function pageOf<R>(
  context: V2Context<unknown, PageQuery>,
  rows: readonly R[],
  keyOf: (row: R) => string,
  toJson: (row: R) => unknown = (row) => row,
  pinned?: string,
): V2Handled {
  const { operationId, query, input } = context;
  const content = readCursor(operationId, query, input.cursor);
  let start = 0;
  if (content) {
    start = rows.findIndex((row) => keyOf(row) === content.k);
    if (start < 0) throw invalidCursor('the row it points at is gone; start again from the first page');
  }
  const limit = input.limit ?? V2_PAGE_DEFAULT;
  const next = rows[start + limit];
  let nextCursor: string | null = null;
  if (next !== undefined) {
    const minted: CursorContent = { o: operationId, f: filtersDigest(operationId, query), k: keyOf(next) };
    const keep = content?.p ?? pinned;
    if (keep !== undefined) minted.p = keep;
    nextCursor = Buffer.from(JSON.stringify(minted)).toString('base64url');
  }
  const json = { data: rows.slice(start, start + limit).map(toJson), nextCursor, hasMore: next !== undefined };
  return { answer: { status: 200, json: input.includeTotal ? { ...json, total: rows.length } : json } };
}
