// How many columns text takes on a terminal: cli-table3's own measure (string-width: a wide character or an emoji two
// columns, a combining mark or a colour code none), the one measure of tables and live views alike: two that disagree by
// a column are a line that wraps on the terminal while the live view counts one row.
import { strlen } from 'cli-table3/src/utils.js';

/** A colour code, as cli-table3 recognises one (and so as strlen leaves it out). */
export const COLOUR_CODE = /\u001b\[(?:\d*;){0,5}\d*m/;
const EVERY_COLOUR_CODE = new RegExp(COLOUR_CODE.source, 'g');

// Printable ASCII is one column a character: most lines, measured without string-width's emoji regex.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The columns `text` takes; colour codes take none. Text has no "\n" of its own. */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const plain = withoutColour(text);
  return PRINTABLE_ASCII.test(plain) ? plain.length : strlen(plain);
}

export function withoutColour(text: string): string {
  return text.replace(EVERY_COLOUR_CODE, '');
}

/** What a terminal draws as one character (a grapheme cluster), and the columns it takes. */
export interface Cluster {
  text: string;
  width: number;
}

let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of `plain` (no colour codes): a ZWJ emoji, a flag, a letter with its accents are each one, never cut apart. */
export function* clusters(plain: string): Generator<Cluster> {
  if (PRINTABLE_ASCII.test(plain)) {
    for (const char of plain) yield { text: char, width: 1 };
    return;
  }
  // Made on first need: the common all-ASCII line never pays for it.
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(plain)) yield { text: segment, width: textWidth(segment) };
}
