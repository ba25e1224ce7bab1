// The words an error message takes from an answer's body: the service's one line of plain text as it came;
// anything else (a proxy's HTML page, a stack trace) summarised in one line (kind, type, size, a page's <title>).

/** An answer as the transport read it. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Longer than this, a one-line message is summarised too. */
const MESSAGE_MAX = 200;
const EXCERPT_MAX = 100;
const TITLE_MAX = 120;

/** The service's own words: plain text from the hosted service, or a JSON error body from other versions. */
export function errorMessage(answer: Answer): string {
  const text = answer.text.trim();
  if (text === '') return `the service answered ${answer.status} with no message`;
  const body = judge(answer, text.startsWith('{') ? jsonMessage(text) : undefined);
  return body.kind === 'words' ? body.words : `the service answered with ${body.summary}`;
}

// What a body says, when one short line of text (`words`: the body, or a JSON body's message); else a summary as a noun
// phrase: `an HTML page (text/html, 1234 bytes) titled "502 Bad Gateway"`.
export function judge(answer: Answer, words: string = answer.text): { kind: 'words'; words: string } | { kind: 'summary'; summary: string } {
  const text = words.trim();
  const size = `${Buffer.byteLength(answer.text)} bytes`;
  const type = answer.contentType.trim() === '' ? 'no content type' : answer.contentType.trim();
  if (isHtml(answer.contentType, text)) {
    const title = titleOf(text);
    return { kind: 'summary', summary: `an HTML page (${type}, ${size})${title ? ` titled "${title}"` : ' without a title'}` };
  }
  const lines = text.split(/\r?\n|\r/);
  if (lines.length === 1 && text.length <= MESSAGE_MAX) return { kind: 'words', words: text };
  const what = lines.length > 1 ? `${lines.length} lines of text` : 'a long message';
  return { kind: 'summary', summary: `${what} (${type}, ${size}) starting "${cut(lines[0]!.trim(), EXCERPT_MAX)}"` };
}

// Whether a 404 is a router's "no such path" (an HTML page, "no route POST /x", "Cannot POST /x", "404 page not found"), not
// the service's "no such PR". Not a bare "Not Found" or empty body: the service's own say such, and a wrong URL stops a multi-PR command.
export function isRouterNotFound(answer: Answer): boolean {
  if (answer.status !== 404) return false;
  const text = answer.text.trim();
  if (text === '') return false;
  if (isHtml(answer.contentType, text)) return true;
  const words = (text.startsWith('{') ? jsonMessage(text) : text)?.trim() ?? '';
  return ROUTER_WORDS.test(words);
}

/**
 * Whether an answer is a web server's, not the API's: a router's 404 (isRouterNotFound), or an HTML page refusing
 * the method (405) or knowing none (501), as a website or a static file server answers an API URL that points at
 * it. The service answers neither in HTML. v1 POSTs what v2 GETs, so such a server answers the two APIs
 * differently (405 and 404): both are the same wrong URL.
 */
export function isNotTheApi(answer: Answer): boolean {
  if (answer.status === 405 || answer.status === 501) return isHtml(answer.contentType, answer.text.trim());
  return isRouterNotFound(answer);
}

const ROUTER_WORDS = /^(?:no route\b|cannot (?:get|post|put|patch|delete|head)\b|404 page not found$)/i;

function jsonMessage(text: string): string | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined; // not JSON after all: judged as the text it is
  }
  if (typeof body !== 'object' || body === null) return undefined;
  // `message`, an `error` of words, or the `message` of an `error` object.
  const nested = (body.error as { message?: unknown } | null | undefined)?.message;
  return [body.message, body.error, nested].find((words): words is string => typeof words === 'string');
}

function isHtml(contentType: string, text: string): boolean {
  return /\b(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType) || /^<(?:!doctype\s+html|html|head|body|title)\b/i.test(text);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function titleOf(html: string): string | undefined {
  const raw = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  if (raw === undefined) return undefined;
  const decoded = raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    const lower = name.toLowerCase();
    return Object.hasOwn(ENTITIES, lower) ? ENTITIES[lower]! : entity;
  });
  const title = decoded.replace(/\s+/g, ' ').trim();
  return title === '' ? undefined : cut(title, TITLE_MAX);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
