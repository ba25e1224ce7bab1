// A terminal in the test process: @xterm/headless (xterm.js without a DOM) fed the exact bytes mq writes, so a
// test can read the window as a person would see it, which screen (normal or alternate) is showing, and how
// many lines have gone up into the scrollback. Node alone: no tmux, no pseudo-terminal.
import { Writable } from 'node:stream';
import headless, { type Terminal } from '@xterm/headless';

export class Emulator {
  readonly terminal: Terminal;
  private pending: Promise<void> = Promise.resolve();
  /** Every byte written, for assertions on escape codes. */
  written = '';

  constructor(columns: number, rows: number) {
    // convertEol: the tty driver turns "\n" into "\r\n" on the way to a real terminal (onlcr).
    this.terminal = new headless.Terminal({ cols: columns, rows, scrollback: 10_000, convertEol: true, allowProposedApi: true });
  }

  private readonly watchers = new Set<() => void>();

  write(text: string): void {
    this.written += text;
    this.pending = this.pending.then(() => new Promise<void>((done) => this.terminal.write(text, done)));
    void this.pending.then(() => this.watchers.forEach((watch) => watch()));
  }

  /**
   * Resolves once the window shows what `test` looks for, checked after each write: a test moves on when mq has
   * drawn something, never after a guessed delay. Its own timeout is the test's.
   */
  until(test: RegExp | ((screen: string) => boolean)): Promise<string> {
    const matches = typeof test === 'function' ? test : (screen: string) => test.test(screen);
    return new Promise((resolve) => {
      const watch = () => {
        const screen = this.screen();
        if (!matches(screen)) return;
        this.watchers.delete(watch);
        resolve(screen);
      };
      this.watchers.add(watch);
      void this.pending.then(watch);
    });
  }

  /** Resolves once everything written so far has been parsed. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** The window's rows as text, trailing blanks cut, trailing empty rows dropped. */
  screen(): string {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return lines.join('\n').trimEnd();
  }

  /**
   * The window's rows (0-based) that continue the row above: a line wider than the window that the terminal
   * wrapped. mq never means to draw one, so any is a line measured narrower than the terminal draws it.
   */
  wrappedRows(): number[] {
    const buffer = this.terminal.buffer.active;
    const rows: number[] = [];
    for (let row = 0; row < this.terminal.rows; row++) if (buffer.getLine(buffer.viewportY + row)?.isWrapped) rows.push(row);
    return rows;
  }

  /** Lines of the normal screen that have scrolled up out of the window. */
  scrollback(): number {
    return this.terminal.buffer.normal.length - this.terminal.rows;
  }

  alternate(): boolean {
    return this.terminal.buffer.active.type === 'alternate';
  }

  resize(columns: number, rows: number): void {
    this.pending = this.pending.then(() => this.terminal.resize(columns, rows));
  }

  /** A stream that looks like a terminal's stdout to mq (isTTY, columns, rows, 'resize') and writes here. */
  stdout(): Writable & { isTTY: true; columns: number; rows: number } {
    const stream = new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        this.write(chunk.toString());
        done();
      },
    }) as Writable & { isTTY: true; columns: number; rows: number };
    const terminal = this.terminal;
    Object.defineProperties(stream, {
      isTTY: { value: true },
      columns: { get: () => terminal.cols },
      rows: { get: () => terminal.rows },
    });
    return stream;
  }
}
