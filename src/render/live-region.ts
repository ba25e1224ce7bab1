// A block of lines redrawn in place on a terminal: the cursor goes back up over the rows the block took last
// time, erases down, and writes the new block. Only ever used when stdout is a terminal; a pipe gets none of it.

const CSI = '\u001b[';
export const HIDE_CURSOR = `${CSI}?25l`;
export const SHOW_CURSOR = `${CSI}?25h`;
const SGR = /\u001b\[[0-9;]*m/g;

/** The terminal's size, as far as it is known. */
export interface Screen {
  columns?: number;
  rows?: number;
}

/** The rows `text` (lines ending in "\n") takes on the screen: a line wider than the screen wraps. */
export function screenRows(text: string, columns: number | undefined): number {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.reduce((rows, line) => {
    const width = Array.from(line.replace(SGR, '')).length;
    return rows + (columns && columns > 0 ? Math.max(1, Math.ceil(width / columns)) : 1);
  }, 0);
}

/** What replaces the `previousRows` rows just above the cursor with `text`. */
export function redrawFrame(previousRows: number, text: string, screen: Screen): string {
  // Rows that scrolled off the top cannot be reached by moving up: clear the whole screen instead.
  if (screen.rows !== undefined && previousRows >= screen.rows) return `${CSI}H${CSI}J${text}`;
  const up = previousRows > 0 ? `\r${CSI}${previousRows}A` : '\r';
  return `${up}${CSI}J${text}`;
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

  /** Lets another line (a warning, a --debug trace on stderr) print above the block, then redraws it below. */
  aside(write: () => void): void {
    if (this.rows === 0) return write();
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
