// A shell command as a person pastes it: its words, and its lines on a screen too narrow for it. A leaf, as help
// (its examples) and what mq writes on stderr (mq sandbox's `export` line) both fold commands.

/** A shell command's words, a quoted one (`"a b"`, `'a b'`) one word. */
export function shellWords(line: string): string[] {
  return line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
}

/**
 * A shell command going on after ` \` where the next word would pass `columns` (as `width` measures), so that pasted
 * it is still one command; no word is cut. `lead` goes before the first word (`  $ `), `indent` before each going on.
 */
export function foldCommand(words: readonly string[], columns: number, width: (text: string) => number, lead = '', indent = '  '): string[] {
  const lines: string[] = [];
  let current = lead + (words[0] ?? '');
  words.forEach((word, index) => {
    if (index === 0) return;
    const after = index < words.length - 1 ? ' \\' : '';
    if (width(`${current} ${word}${after}`) > columns) {
      lines.push(`${current} \\`);
      // Indented where the word and the ` \` that may follow it fit so, else flush left: one column past the edge,
      // the terminal would wrap the line and leave its ` \` alone on the next row.
      current = width(`${indent}${word}${after}`) <= columns ? indent + word : word;
    } else current += ` ${word}`;
  });
  return [...lines, current];
}
