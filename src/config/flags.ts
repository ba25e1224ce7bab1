// The first layer: global flags. A bad value here is the user's typo on this very command line, so a UsageError
// (exit 2) naming the flag; a duration is told as every duration flag is (config/duration.ts).
import { flagKey } from '../argv-spec.js';
import { UsageError } from '../errors.js';
import { MORE_THAN_ZERO, parseDuration } from './duration.js';
import type { Found, Layer } from './settings.js';
import { longFlag, ROWS, type GlobalFlags, type RowKey, type SettingRow } from './setting-rows.js';

/** Flags read by the parser of their kind of input, so --timeout is told as the commands' own --timeout is. */
const PARSERS: { readonly [K in RowKey]?: (flag: string, text: string) => unknown } = {
  timeoutMs: (flag, text) => parseDuration(flag, text, MORE_THAN_ZERO),
};

export function flagsLayer(flags: GlobalFlags): Layer {
  const found: Record<string, Found<unknown>> = {};
  const given: Readonly<Record<string, unknown>> = flags;
  for (const row of ROWS) {
    if (row.flag === undefined || row.check === undefined) continue;
    const value = given[flagKey(row.flag)];
    const flag = longFlag(row.flag);
    // A switch (--insecure) is on when written; commander hands it over as true.
    if (value === true) found[row.key] = { value: true, origin: `flag ${flag}` };
    else if (typeof value === 'string') found[row.key] = take(flag, value, row);
  }
  const layer: Layer = found;
  if (flags.json === true) {
    if (layer.output?.value === 'table') throw new UsageError('--json and --output table contradict each other');
    layer.output = { value: 'json', origin: 'flag --json' };
  }
  return layer;
}

function take(flag: string, text: string, row: SettingRow): Found<unknown> {
  const parse = PARSERS[row.key as RowKey];
  if (parse !== undefined) return { value: parse(flag, text), origin: `flag ${flag}` };
  const checked = row.check!(text);
  if (!checked.ok) throw new UsageError(`${flag}: "${(row.quote ?? String)(text)}" ${checked.problem}`);
  return { value: checked.value, origin: `flag ${flag}` };
}
