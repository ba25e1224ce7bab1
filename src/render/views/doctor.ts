// `mq doctor`: one line per check, ✓ / ✗ / - (skipped), a failure's fix beneath it, the settings and where each
// came from beneath the config check, and a last line that sums up with the exit code and what it means.
import type { ConfigEntry, DoctorCheck } from '../../model/result.js';
import { exitMeaning } from '../../help/exit-codes.js';
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';

export const CHECK_LABELS: Record<string, string> = {
  node: 'Node.js',
  config: 'config',
  apiUrl: 'API URL',
  token: 'token',
  api: 'API',
  reachable: 'API reachable',
  serviceStatus: 'service status',
  clock: 'clock',
  repo: 'repository',
  tokenAccepted: 'token accepted',
  queue: 'queue',
  proxy: 'proxy',
  workflows: 'CI workflows',
  testBranches: 'CI triggers',
  requiredStatuses: 'CI statuses',
  testingTimeout: 'CI timeout',
};

const WIDTH = Math.max(...Object.values(CHECK_LABELS).map((label) => label.length));

export function renderDoctor(result: ResultOf<'doctor'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const lines: string[] = [];
  for (const check of result.checks) {
    const mark = check.ok ? paint.green('✓') : check.skipped ? paint.dim('-') : paint.red('✗');
    const label = (CHECK_LABELS[check.name] ?? check.name).padEnd(WIDTH);
    const detail = safeLine(check.detail);
    lines.push(`${mark} ${check.skipped ? paint.dim(`${label}  ${detail}`) : `${label}  ${detail}`}`);
    if (!check.ok && check.fix) lines.push(`  ${' '.repeat(WIDTH)}  ${paint.bold('fix:')} ${safeLine(check.fix)}`);
    if (check.name === 'config' && result.entries) lines.push(...settingLines(result.entries, ctx));
  }
  lines.push('', summary(result.checks, result.exitCode));
  return `${lines.join('\n')}\n`;
}

function settingLines(entries: readonly ConfigEntry[], ctx: RenderContext): string[] {
  const width = Math.max(...entries.map((entry) => entry.key.length));
  return entries.map((entry) => {
    const key = `  ${' '.repeat(WIDTH)}  ${safeLine(entry.key).padEnd(width)}`;
    if (entry.value === undefined) return `${key}  ${ctx.paint.dim('(not set)')}`;
    return `${key}  ${safeLine(entry.value)}  ${ctx.paint.dim(`(${safeLine(entry.origin)})`)}`;
  });
}

function summary(checks: readonly DoctorCheck[], exitCode: number): string {
  const failed = checks.filter((check) => !check.ok && !check.skipped).length;
  const skipped = checks.filter((check) => check.skipped).length;
  if (failed === 0) return skipped === 0 ? `All ${checks.length} checks passed.` : `${checks.length - skipped} checks passed, ${skipped} not run.`;
  const counts = `${failed} check${failed === 1 ? '' : 's'} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  return `${counts}: exit ${exitCode}, ${exitMeaning(exitCode).split(':')[0]}.`;
}
