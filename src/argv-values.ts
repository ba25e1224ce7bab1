// How a refused value from the command line is told, one shape for every kind of input:
// `--timeout: "1x" is not a duration; use e.g. 30s, 10m, 2h or 1d`. The flag (or argument) first, the value as
// given, what is wrong with it, then what to give instead.
import { UsageError } from './errors.js';

/** A value longer than this is shown cut, so the sentence stays one line. */
const SHOWN_MAX = 60;

/** The value as given, cut where long, for a sentence that quotes it otherwise than badValue does. */
export function cutValue(text: string): string {
  return [...text].length > SHOWN_MAX ? `${[...text].slice(0, SHOWN_MAX).join('')}…` : text;
}

/** The value as given, quoted, with control characters escaped and a long one cut. */
function quoteValue(text: string): string {
  return JSON.stringify(cutValue(text));
}

/** `name` is a flag (`--limit`) or an argument as the help writes it (`<pr>`). */
export function badValue(name: string, text: string, problem: string, use: string): UsageError {
  return new UsageError(`${name}: ${quoteValue(text)} ${problem}; use ${use}`);
}

/** `a`, `a or b`, `a, b or c`: the choices as a sentence says them. */
export function listOfChoices(choices: readonly string[]): string {
  return choices.length < 2 ? (choices[0] ?? '') : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
}

/** The parser of a value from a fixed set: instead of commander's own check, whose refusal has another shape than every other. */
export function choiceOf(name: string, choices: readonly string[]): (text: string) => string {
  return (text) => {
    if (choices.includes(text)) return text;
    throw badValue(name, text, 'is not one of the choices', listOfChoices(choices));
  };
}

/** Linux hands argv and the environment over decoded, a non-UTF-8 byte as U+FFFD: such text is refused rather than stored with the byte replaced. */
export function isUnreadable(text: string): boolean {
  return text.includes('\uFFFD');
}

/** What is wrong with unreadable text, in the words every refusal of it uses. */
export const NOT_UTF8 = 'is not valid UTF-8 (\uFFFD marks a byte that is not)';

export function refuseUnreadable(name: string, text: string): void {
  if (isUnreadable(text)) throw badValue(name, text, NOT_UTF8, 'the same text in UTF-8');
}
