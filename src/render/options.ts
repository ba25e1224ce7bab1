// What every view is handed: colour and "now" come from the caller, so rendering stays pure and testable.
import type { ChalkInstance } from 'chalk';
import type { CommandResult } from '../model/result.js';
import type { Screen } from './screen-fit.js';

export interface RenderOptions {
  color: boolean;
  /** Epoch milliseconds, for ages like "4m". */
  now: number;
  /** stdout's window when it is a terminal: views laid out for a person fit it; absent in a pipe. */
  screen?: Screen;
}

/** The per-call state a view draws with: one chalk instance made for this call, never the global one. */
export interface RenderContext {
  paint: ChalkInstance;
  now: number;
  screen?: Screen;
}

/** The result of one kind, as src/model/result.ts defines it. */
export type ResultOf<K extends CommandResult['kind']> = Extract<CommandResult, { kind: K }>;
