// Quoting words into generated scripts: the words are mq's own (names, descriptions), but a description with an
// apostrophe must not end a string early.

/** A POSIX single-quoted word, for bash and zsh. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A fish single-quoted word: inside one, only \ and ' are special. */
export function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

/** One line of a description: completion menus show one line, and a tab or newline would break the format. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
