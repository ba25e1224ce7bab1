// `--reason` of queue pause, as the confirmation asks it and the result prints it.
import { safeLine } from './sanitize.js';

/**
 * `--reason` on a line of its own, in the confirmation prompt and in the result: the service stores none, so the
 * words say that this line (and a CI log that keeps it) is its only record. '' without one.
 */
export function reasonLine(reason: string | undefined): string {
  return reason ? `Reason: ${safeLine(reason)} (printed only: the service stores no reason)` : '';
}
