// A full-window view on the terminal's alternate screen, as `watch` and `top` draw theirs: each frame over the last,
// so nothing reaches the scrollback; on leaving, the user's screen comes back with the last frame printed on it once.
import { HIDE_CURSOR, SHOW_CURSOR } from './live-region.js';

const CSI = '\u001b[';
const ENTER_ALTERNATE = `${CSI}?1049h`;
const LEAVE_ALTERNATE = `${CSI}?1049l`;
const HOME = `${CSI}H`;
const ERASE_LINE_END = `${CSI}K`;
const ERASE_BELOW = `${CSI}J`;

export class AlternateScreen {
  private entered = false;

  constructor(private readonly write: (text: string) => void) {}

  /** Replaces the window's content with `text` (lines ending in "\n", already fitted to the window). */
  draw(text: string): void {
    const enter = this.entered ? '' : `${ENTER_ALTERNATE}${HIDE_CURSOR}`;
    this.entered = true;
    // Over the last frame rather than after clearing it: a clear first would flicker.
    this.write(`${enter}${HOME}${text.replaceAll('\n', `${ERASE_LINE_END}\n`)}${ERASE_BELOW}`);
  }

  /** A line from elsewhere (a warning on stderr) shows under the frame until the next one covers it. */
  aside(write: () => void): void {
    write();
  }

  clear(): void {
    if (this.entered) this.write(`${HOME}${ERASE_BELOW}`);
  }

  /** Back to the normal screen, where `last` (the whole last frame, uncut) is printed once. Safe to call twice. */
  end(last: () => string = () => ''): void {
    if (!this.entered) return;
    this.entered = false;
    this.write(`${LEAVE_ALTERNATE}${SHOW_CURSOR}${last()}`);
  }
}
