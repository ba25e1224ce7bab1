// Titles, authors, branch names and error bodies are written by other people. A PR title holding an escape
// sequence must not drive the user's terminal, and a pipe must never receive an escape code, so every string from
// outside passes through here before it is drawn. (JSON output needs none of this: JSON.stringify escapes.)

// C0 and C1 controls (ESC among them) and the bidirectional overrides that can make text read differently from
// what it is.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const REPLACEMENT = '\uFFFD';

/** For a table cell or a one-line field: line breaks and tabs become spaces, other controls a visible �. */
export function safeLine(text: string): string {
  return text.replace(/\r\n|[\r\n\t]/g, ' ').replace(UNSAFE, REPLACEMENT);
}

/** For a message that may span lines (a refusal listing PRs): keeps line breaks, neutralises the rest. */
export function safeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\t/g, ' ').replace(UNSAFE, REPLACEMENT);
}
