// The first layer: global flags. A bad value here is the user's typo on this very command line, so a UsageError
// (exit 2) naming the flag.
import { shownUrl } from '../api/redaction.js';
import { UsageError } from '../errors.js';
import type { Found, GlobalFlags, Layer } from './settings.js';
import { checkApiUrl, checkOutput, checkRepo, checkTimeout, checkWord, type Checked } from './values.js';

/** `quote` shows the value in the error: a URL's password never (CLI.md: credentials are never echoed). */
function take<T>(flag: string, text: string, check: (text: string) => Checked<T>, quote = (t: string) => t): Found<T> {
  const checked = check(text);
  if (!checked.ok) throw new UsageError(`invalid ${flag} "${quote(text)}": ${checked.problem}`);
  return { value: checked.value, origin: `flag ${flag}` };
}

export function flagsLayer(flags: GlobalFlags): Layer {
  const layer: Layer = {};
  if (flags.apiUrl !== undefined) layer.apiUrl = take('--api-url', flags.apiUrl, checkApiUrl, shownUrl);
  if (flags.repo !== undefined) layer.repo = take('--repo', flags.repo, checkRepo, shownUrl);
  if (flags.branch !== undefined) {
    layer.targetBranch = take('--branch', flags.branch, (t) => checkWord(t, 'targetBranch'));
  }
  if (flags.org !== undefined) layer.org = take('--org', flags.org, (t) => checkWord(t, 'org'));
  if (flags.profile !== undefined) layer.profile = take('--profile', flags.profile, (t) => checkWord(t, 'profile'));
  if (flags.timeout !== undefined) layer.timeoutMs = take('--timeout', flags.timeout, checkTimeout);
  if (flags.output !== undefined) layer.output = take('--output', flags.output, checkOutput);
  if (flags.insecure === true) layer.insecure = { value: true, origin: 'flag --insecure' };
  if (flags.json === true) {
    if (layer.output?.value === 'table') throw new UsageError('--json and --output table contradict each other');
    layer.output = { value: 'json', origin: 'flag --json' };
  }
  return layer;
}
