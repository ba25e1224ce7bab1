// `--reason` of queue pause, as the confirmation asks it and the result prints it.
import { safeLine } from './sanitize.js';

/** `--reason` on its own line, in the prompt and the result, saying it is the only record (the service stores none); '' without one. */
export function reasonLine(reason: string | undefined): string {
  return reason ? `Reason: ${safeLine(reason)} (printed only: the service stores no reason)` : '';
}
