// Why a PR ended unmerged, as lines: the run that failed it and its failing checks, or what little is known of a
// cancellation; then the next step. Shared by `mq status` and the end of `mq wait`.
import type { Why } from '../model/why.js';
import { formatSince } from './fields.js';
import type { RenderContext } from './options.js';
import { safeLine } from '../text/sanitize.js';

/** Bulleted at `indent`; a failing check sits under its run, unbulleted. */
export function whyLines(why: Why, ctx: RenderContext, indent: string): string[] {
  return reasons(why, ctx).map((line) => (line.startsWith(' ') ? `${indent}${line}` : `${indent}- ${line}`));
}

function reasons(why: Why, ctx: RenderContext): string[] {
  const { paint } = ctx;
  const lines: string[] = [];
  if (why.state === 'cancelled') {
    const said = why.reason === null ? "; the PR's read gives no reason, its history may give one" : `: ${safeLine(why.reason)}`;
    lines.push(`cancelled ${formatSince(why.cancelledAt, ctx.now)}${said}`);
  } else {
    if (why.reason !== null) lines.push(`failed: ${safeLine(why.reason)}`);
    const run = why.testRunId === null ? 'its test run' : `test run ${safeLine(why.testRunId)}`;
    if (why.failingChecks === null) lines.push(`why: unavailable (${safeLine(why.unavailable ?? 'unknown')})`);
    else if (why.failingChecks.length === 0) lines.push(`${run} failed; it reports no failing check`);
    else {
      lines.push(`${run} failed:`);
      for (const check of why.failingChecks) {
        const url = check.url === null ? '' : `  ${safeLine(check.url)}`;
        lines.push(`  ${safeLine(check.name)} ${paint.red(safeLine(check.conclusion ?? 'no conclusion'))}${url}`);
      }
    }
  }
  lines.push(`next: ${why.next.join(', ')}`);
  return lines;
}
