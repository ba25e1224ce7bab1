// Confirmations of commands that change something: per-PR outcomes, queue changes, impacted targets.
import type { PrOutcome } from '../../model/result.js';
import { paintState } from '../colors.js';
import { aboutPr, shortSha } from '../fields.js';
import type { RenderContext, ResultOf } from '../options.js';
import { queueName } from '../../config/repo.js';
import { reasonLine } from '../../text/reason.js';
import { REQUESTED_STATE } from '../../model/wait-events.js';
import { safeLine } from '../../text/sanitize.js';
import { mergedSubmittedAgain } from '../../model/vocabulary.js';
import { renderPairs } from '../tables.js';
import { renderQueueSettings, settingPairs } from './queue.js';

type PrAction = ResultOf<'perPr'>['action'];

const PAST_TENSE: Record<PrAction, string> = { submit: 'submitted', cancel: 'cancelled', restart: 'restarted', edit: 'changed' };

/** `✓ #42 submitted (pending)` / `✗ #43: <message>`, one line per PR. */
export function renderOutcomes(action: PrAction, results: readonly PrOutcome[], ctx: RenderContext): string {
  return results.map((outcome) => `${outcomeLine(action, outcome, ctx)}\n`).join('');
}

function outcomeLine(action: PrAction, outcome: PrOutcome, ctx: RenderContext): string {
  const { paint } = ctx;
  if (!outcome.ok) {
    // A refusal in the service's words, then its code; a PR not in the queue is one outcome in mq's words on both APIs.
    const code = outcome.error.serviceCode === undefined || outcome.error.code === 'not_found' ? '' : ` (${outcome.error.serviceCode})`;
    return `${paint.red('✗')} ${aboutPr(outcome.pr, `${outcome.error.message}${code}`)}`;
  }
  if (outcome.alreadyMerged) return `${paint.green('✓')} ${mergedSubmittedAgain(outcome.pr, true)}`;
  const where = [
    outcome.state === undefined || outcome.state === null ? undefined : paintState(paint, outcome.state),
    outcome.position === undefined || outcome.position === null ? undefined : `position ${outcome.position}`,
  ].filter((part) => part !== undefined);
  const details = where.length === 0 ? '' : ` (${where.join(', ')})`;
  // Submitting a PR the queue already holds is done: say so, and where it stands.
  const verb = outcome.alreadyQueued ? 'already queued' : PAST_TENSE[action];
  return `${paint.green('✓')} #${outcome.pr} ${verb}${details}`;
}

export function renderQueueChange(change: ResultOf<'queueChange'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const name = `Queue ${queueName(change.branch, change.repo)}`;
  const lines: string[] = [];
  const requested = REQUESTED_STATE[change.action];
  if (change.changed === false && requested) return `${name} is already ${paintState(paint, requested)}\n`;
  switch (change.action) {
    case 'create':
      lines.push(`${name} created`);
      if (change.queue) lines.push(renderQueueSettings(change.queue, ctx));
      break;
    case 'update':
      lines.push(...updateLines(name, change, ctx));
      break;
    case 'pause':
      lines.push(`${name} ${paintState(paint, 'paused')}`, reasonLine(change.reason));
      break;
    case 'resume':
      lines.push(`${name} ${paint.green('resumed')}`);
      break;
    case 'drain':
      lines.push(`${name} is ${paintState(paint, 'draining')}`);
      break;
    case 'delete':
      if (change.cancelled) lines.push(renderOutcomes('cancel', change.cancelled, ctx).trimEnd());
      lines.push(`${name} deleted`);
      break;
  }
  // e.g. a pause answered while the queue is switching modes: say what the service reports.
  if (requested && change.queue && change.queue.state !== requested) {
    lines.push(`The service reports the queue as ${paintState(paint, change.queue.state)}.`);
  }
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}

/** What changed (`concurrency  1 → 4`), then every setting, so a log keeps the queue; a change of nothing says so alone (--json has the queue). */
function updateLines(name: string, change: ResultOf<'queueChange'>, ctx: RenderContext): string[] {
  const changes = change.settingsChanged;
  if (!change.queue || changes === undefined) return [`${name} updated`, ...(change.queue ? [renderQueueSettings(change.queue, ctx)] : [])];
  if (changes.length === 0) return [`${name} unchanged: each setting already had the value given`];
  type Shown = NonNullable<ResultOf<'queueChange'>['queue']>;
  const shown = (queue: Shown | undefined, setting: string, value: unknown) =>
    (queue && settingPairs(queue, ctx).find(([key]) => key === setting)?.[1]) ?? safeLine(JSON.stringify(value));
  const before = { ...change.queue, ...Object.fromEntries(changes.map(({ setting, from }) => [setting, from])) } as Shown;
  const rows: Array<[string, string]> = changes.map(({ setting, from, to }) => [
    setting,
    `${shown(before, setting, from)} → ${shown(change.queue, setting, to)}`,
  ]);
  const count = `${changes.length} setting${changes.length === 1 ? '' : 's'} changed`;
  return [`${name} updated: ${count}`, renderPairs(rows, ctx.paint), `\n${ctx.paint.bold('Settings now:')}\n${renderQueueSettings(change.queue, ctx)}`];
}

/** `Impacted targets of #42 set: 3 targets (sha abc1234)`; the fallback warning is printed elsewhere. */
export function renderTargets(outcome: ResultOf<'targets'>): string {
  const sha = outcome.sha ? ` (sha ${shortSha(outcome.sha)})` : '';
  const what = outcome.impactedTargets === 'ALL' ? ' to ALL' : `: ${outcome.count} target${outcome.count === 1 ? '' : 's'}`;
  return `Impacted targets of #${outcome.pr} set${what}${sha}\n`;
}
