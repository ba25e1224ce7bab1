// What `mq queue drain --wait` shows while the admitted PRs finish: one line (redrawn on a terminal, printed
// per change in a pipe), its NDJSON event, and the summary. Pure: colour and "now" come in.
import type { PlacedPullRequest } from '../../model/queue.js';
import type { DrainResult, QueueChange } from '../../model/wait-events.js';
import { paintState } from '../colors.js';
import { toJson } from '../json.js';
import type { RenderContext } from '../options.js';
import { outageSummary } from './outage.js';
import { queueName } from '../../config/repo.js';

/** `2 admitted PRs left: #1 testing, #2 pending`. */
export function renderAdmittedLine(admitted: readonly PlacedPullRequest[], ctx: RenderContext): string {
  if (admitted.length === 0) return 'No admitted PR left\n';
  return `${admittedCount(admitted)} left: ${listAdmitted(admitted, ctx)}\n`;
}

/** The NDJSON line of a change: `{"admitted":[{"pr":1,"state":"testing"}],"at":"…"}`, `at` by the service's clock. */
export function admittedJson(admitted: readonly PlacedPullRequest[], now: number): unknown {
  return { admitted: admittedRecords(admitted), at: new Date(now).toISOString() };
}

export function renderDrainSummary(result: DrainResult, ctx: RenderContext): string {
  const name = `Queue ${queueName(result.change.branch, result.change.repo)}`;
  if (result.admitted.length === 0) return `${ctx.paint.green('✓')} ${name} drained: no admitted PR left\n`;
  return `${ctx.paint.yellow('…')} ${name} still has ${admittedCount(result.admitted)}: ${listAdmitted(result.admitted, ctx)}\n`;
}

/** What Ctrl-C leaves: the drain stands, and the command that resumes the queue, named in full for any directory. No colour: an error's text. */
export function describeInterruptedDrain(change: QueueChange): string {
  const left = `the queue ${queueName(change.branch, change.repo)} is still draining`;
  return change.resumeCommand ? `${left}\nit was not resumed; to resume it: ${change.resumeCommand}` : `${left}: it was not resumed`;
}

/** The last NDJSON line: the drain's JSON document, with `ok`, `timedOut`, the admitted PRs left, and `unreachableSince` after an outage's timeout. */
export function drainSummaryJson(result: DrainResult): unknown {
  const admitted = admittedRecords(result.admitted);
  return { summary: { ok: result.ok, timedOut: result.timedOut, ...outageSummary(result.outage), ...(toJson(result.change) as object), admitted } };
}

function admittedRecords(admitted: readonly PlacedPullRequest[]): Array<{ pr: number; state: string | null }> {
  return admitted.map((pr) => ({ pr: pr.prNumber, state: pr.state ?? null }));
}

function admittedCount(admitted: readonly PlacedPullRequest[]): string {
  return `${admitted.length} admitted PR${admitted.length === 1 ? '' : 's'}`;
}

/** Up to 5, each by number; more, counted by state (numbers kept for a group of 3 or fewer): the line must fit. */
function listAdmitted(admitted: readonly PlacedPullRequest[], ctx: RenderContext): string {
  if (admitted.length <= 5) return admitted.map((pr) => `#${pr.prNumber} ${paintState(ctx.paint, pr.state)}`).join(', ');
  const groups = new Map<string | undefined, number[]>();
  for (const pr of admitted) {
    const group = groups.get(pr.state) ?? [];
    group.push(pr.prNumber);
    groups.set(pr.state, group);
  }
  return [...groups]
    .map(([state, prs]) => `${prs.length} ${paintState(ctx.paint, state)}${prs.length <= 3 ? ` (${prs.map((n) => `#${n}`).join(', ')})` : ''}`)
    .join(', ');
}
