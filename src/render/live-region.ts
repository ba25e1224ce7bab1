// A block of lines redrawn in place on a terminal: the cursor goes back up over the rows the block took last
// time, erases down, and writes the new block. Only ever used when stdout is a terminal; a pipe gets none of it.
import { lineRows, linesOf, type Screen } from './screen-fit.js';

export type { Screen } from './screen-fit.js';

const CSI = '\u001b[';
export const HIDE_CURSOR = `${CSI}?25l`;
export const SHOW_CURSOR = `${CSI}?25h`;

/** The rows `text` (lines ending in "\n") takes on the screen: a line wider than the screen wraps. */
export function screenRows(text: string, columns: number | undefined): number {
  return linesOf(text).reduce((rows, line) => rows + lineRows(line, columns), 0);
}

/**
 * What replaces the `previousRows` rows above the cursor with `text`: each line written over the old one and erased to its end, then what is
 * left below; never an erase from the top-left corner, which tmux takes for "clear the screen", pushing the window into the scrollback.
 */
export function redrawFrame(previousRows: number, text: string, screen: Screen): string {
  // Rows that scrolled off the top cannot be reached by moving up: start again from the top of the window. A
  // terminal that gives no size (0 rows: `script` in CI) has no top known to start from.
  const outgrown = screen.rows !== undefined && screen.rows > 0 && previousRows >= screen.rows;
  const start = outgrown ? `${CSI}H` : previousRows > 0 ? `\r${CSI}${previousRows}A` : '\r';
  if (text !== '') return `${start}${text.replaceAll('\n', `${CSI}K\n`)}${CSI}J`;
  // Nothing to draw: erase the old rows one by one, then back to where they began.
  const rows = outgrown ? screen.rows! : previousRows;
  return rows > 0 ? `${start}${`${CSI}2K${CSI}1B`.repeat(rows)}${CSI}${rows}A` : start;
}

/** The one stateful piece: remembers how tall the block was, and hides the cursor while it is redrawn. */
export class LiveRegion {
  private rows = 0;
  private hidden = false;
  private last = '';

  constructor(
    private readonly write: (text: string) => void,
    private readonly screen: () => Screen,
  ) {}

  draw(text: string): void {
    const screen = this.screen();
    const cursor = this.hidden ? '' : HIDE_CURSOR;
    this.hidden = true;
    this.write(`${cursor}${redrawFrame(this.rows, text, screen)}`);
    this.rows = screenRows(text, screen.columns);
    this.last = text;
  }

  /** The window changed size: the terminal re-wrapped the block (tmux, VTE, iTerm2, xterm.js do), so it takes the rows it takes now. Draw again after. */
  resized(): void {
    if (this.rows > 0) this.rows = screenRows(this.last, this.screen().columns);
  }

  /** Lets another line (a warning, a --debug trace on stderr) print above the block, then redraws it below. */
  aside(write: () => void): void {
    if (this.rows === 0) {
      write();
      return;
    }
    this.clear();
    write();
    this.draw(this.last);
  }

  /** Erases the block, for a summary to take its place. */
  clear(): void {
    if (this.rows > 0) this.write(redrawFrame(this.rows, '', this.screen()));
    this.rows = 0;
  }

  /** Leaves the block as drawn (each line already ends in a newline) and gives the cursor back. */
  end(): void {
    if (this.hidden) this.write(SHOW_CURSOR);
    this.hidden = false;
  }
}
