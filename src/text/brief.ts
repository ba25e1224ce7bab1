// A message's words briefly: what quotes a value it was given says a long one by its start and its length.

/** The most of one word (no space, no quote) an error message repeats, and the most of a whole one. */
const WORD_MAX = 100;
const MESSAGE_MAX = 1_000;
/** What ends a word of a message: white space, or a double quote. */
const WORD_END = /[\s"]/g;

/**
 * An error's words, a long one quoted by its first 100 characters and its length (`"yyyy… (20971520 characters)"`),
 * the message cut at 1,000: as either face of the sandbox sends them, so that a 20 MiB value is not answered with
 * 20 MiB, and as mq says of a value it was given where it words the service's answer itself. Word by word: one
 * regular expression over a 20 MiB word overflows the stack.
 */
export function briefWords(message: string): string {
  let short = '';
  let word = 0;
  while (word <= message.length && short.length <= MESSAGE_MAX) {
    WORD_END.lastIndex = word;
    const end = WORD_END.exec(message)?.index ?? message.length;
    const length = end - word;
    short += `${length > WORD_MAX ? `${message.slice(word, word + WORD_MAX)}… (${length} characters)` : message.slice(word, end)}${message.charAt(end)}`;
    word = end + 1;
  }
  return short.length <= MESSAGE_MAX ? short : `${short.slice(0, MESSAGE_MAX)}… (${message.length} characters)`;
}
