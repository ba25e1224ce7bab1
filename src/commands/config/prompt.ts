// Questions on the terminal for `mq config init`, handed to the handler so that it stays free of I/O: one
// readline interface for all the questions (answers typed ahead are not lost between them), made on first use.
import type { Readable, Writable } from 'node:stream';
import { createInterface, type Interface } from 'node:readline/promises';
import type { Checked } from '../../config/values.js';
import { InterruptedError } from '../../errors.js';

export interface Prompt {
  /** Asks until `check` accepts the answer; an empty one takes `suggested` (none: undefined, the question skipped). */
  ask<T>(question: string, suggested: string | undefined, check: (answer: string) => Checked<T>): Promise<T | undefined>;
  close(): void;
}

export function terminalPrompt(input: Readable, output: Writable, signal: AbortSignal): Prompt {
  let lines: Interface | undefined;
  let ended: Promise<never> | undefined;
  const open = () => {
    lines = createInterface({ input, output, terminal: true });
    const current = lines;
    // Ctrl-C in raw mode reaches readline, not the process; Ctrl-D closes the input. Either ends the command.
    ended = new Promise<never>((_, fail) => {
      current.once('SIGINT', () => fail(new InterruptedError()));
      current.once('close', () => fail(new InterruptedError()));
    });
    ended.catch(() => undefined);
    return current;
  };
  return {
    async ask(question, suggested, check) {
      const rl = lines ?? open();
      for (;;) {
        const asked = rl.question(`${question}${suggested === undefined ? '' : ` [${suggested}]`}: `, { signal });
        const answer = await Promise.race([asked, ended!]).catch(() => {
          throw new InterruptedError();
        });
        const text = answer.trim() === '' ? suggested : answer.trim();
        if (text === undefined) return undefined;
        const checked = check(text);
        if (checked.ok) return checked.value;
        output.write(`  ${question} ${checked.problem}\n`);
      }
    },
    close() {
      lines?.close();
    },
  };
}
