// Help text laid out to the width commander gives its Help (the terminal's, 80 in a pipe): every paragraph is
// flowed by commander's own wrapping, never by hand, so help fits a 60-column terminal as it fits a 200-column one.
import type { Help } from 'commander';
import { foldCommand, shellWords } from '../text/shell-words.js';

/**
 * A piece of help. A string is prose: a blank line parts paragraphs, any other break is a space. `rows`: two columns, the right one wrapped
 * under itself. `commands`: lines after `$ `, cut only between shell words, with ` \` where one goes on.
 */
export type Block = string | { heading?: string; rows: ReadonlyArray<readonly [string, string]> } | { heading?: string; commands: readonly string[] };

/** Below this many columns beside its term a description goes under the term instead (fitItem). */
const MIN_DESCRIPTION = 30;

/** How far a description under its term (fitItem) and a command's continued line are indented. */
const UNDER = 6;

/** What commander writes before a command's usage; its continued lines go under the usage's first word. */
const USAGE_TITLE = 'Usage: ';

/** What mq's commander Help is configured with (program.ts), and what topics lay out with. */
export const HELP_LAYOUT = { minWidthToWrap: MIN_DESCRIPTION, formatItem: fitItem, styleUsage: foldUsage };

/** The blocks as text, a blank line between two, ending with a line break. */
export function layout(blocks: readonly Block[], help: Help): string {
  return `${blocks.map((block) => render(block, help)).join('\n\n')}\n`;
}

function render(block: Block, help: Help): string {
  if (typeof block === 'string') return prose(block, help);
  const body = 'rows' in block ? rows(block.rows, help) : block.commands.map((line) => commandLine(line, help)).join('\n');
  return block.heading === undefined ? body : `${prose(block.heading, help)}\n${body}`;
}

function prose(text: string, help: Help): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => help.boxWrap(paragraph.replace(/\s*\n\s*/g, ' '), width(help)))
    .join('\n\n');
}

function rows(items: ReadonlyArray<readonly [string, string]>, help: Help): string {
  const termWidth = Math.max(...items.map(([term]) => help.displayWidth(term)));
  return items.map(([term, description]) => help.formatItem(term, termWidth, description, help)).join('\n');
}

/** `  $ mq …`, going on after ` \` where the next word would pass the width; a comment that does not fit goes on comment lines of its own. */
function commandLine(line: string, help: Help): string {
  const words = shellWords(line);
  const commentAt = words.findIndex((word) => word.startsWith('#'));
  const command = commentAt < 0 ? words : words.slice(0, commentAt);
  const comment = commentAt < 0 ? '' : words.slice(commentAt).join(' ');
  const indent = ' '.repeat(UNDER);
  const lines = foldCommand(command, width(help), (text) => help.displayWidth(text), '  $ ', indent);
  const current = lines.pop()!.trimEnd();
  if (comment === '' || help.displayWidth(`${current} ${comment}`) <= width(help)) return [...lines, `${current} ${comment}`.trimEnd()].join('\n');
  const text = comment.replace(/^#\s*/, '');
  const commentLines = help.boxWrap(text, width(help) - indent.length - 2).split('\n');
  return [...lines, current, ...commentLines.map((part) => `${indent}# ${part}`)].join('\n');
}

/** commander's item (term padded, description beside it), or the term alone and the description under it when it would have < MIN_DESCRIPTION columns. */
function fitItem(this: Help, term: string, termWidth: number, description: string, help: Help): string {
  const room = width(help) - termWidth - 4;
  // commander's own, the Help class's: fitItem is set on its instances.
  if (!description || room >= MIN_DESCRIPTION) return Object.getPrototypeOf(this).formatItem.call(this, term, termWidth, description, help);
  const indent = ' '.repeat(UNDER);
  return `  ${term}\n${indent}${help.boxWrap(description, width(help) - UNDER).replace(/\n/g, `\n${indent}`)}`;
}

/**
 * commander's usage (`mq flaky link-ticket [options] <test-id> <ticket-id>`), styled as commander styles it, then
 * folded between its words to the width as the rest of help is, the lines after the first under its `mq`.
 */
function foldUsage(this: Help, usage: string): string {
  const styled: string = Object.getPrototypeOf(this).styleUsage.call(this, usage);
  if (width(this) < this.minWidthToWrap) return styled;
  const room = width(this) - USAGE_TITLE.length;
  const lines: string[] = [];
  for (const word of styled.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && this.displayWidth(`${last} ${word}`) <= room) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join(`\n${' '.repeat(USAGE_TITLE.length)}`);
}

function width(help: Help): number {
  return help.helpWidth ?? 80;
}
