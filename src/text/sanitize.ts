// Titles, authors, branch names and error bodies are written by other people. A PR title holding an escape
// sequence must not drive the user's terminal, and a pipe must never receive an escape code, so every string from
// outside passes through here before it is drawn. (JSON output needs none of this: JSON.stringify escapes.)

// C0 and C1 controls (ESC among them), the bidirectional overrides and marks that can make text read differently
// from what it is, and the invisible characters a terminal draws in no column but a table's measure counts as one
// (a zero-width space put a row's columns out of line): each a visible �. The joiners (ZWJ, ZWNJ) stay, as parts of
// emoji and of scripts that need them.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const REPLACEMENT = '\uFFFD';

/** For a table cell or a one-line field: line breaks and tabs become spaces, other controls a visible �. */
export function safeLine(text: string): string {
  return text.replace(/\r\n|[\r\n\t]/g, ' ').replace(UNSAFE, REPLACEMENT);
}

/** For a message that may span lines (a refusal listing PRs): keeps line breaks, neutralises the rest. */
export function safeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\t/g, ' ').replace(UNSAFE, REPLACEMENT);
}
