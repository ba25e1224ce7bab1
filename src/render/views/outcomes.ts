// Confirmations of commands that change something: per-PR outcomes, queue changes, impacted targets.
import type { PrOutcome } from '../../model/result.js';
import { paintState } from '../colors.js';
import { aboutPr, shortSha } from '../fields.js';
import type { RenderContext, ResultOf } from '../options.js';
import { queueName, requestedQueueState } from '../queue-actions.js';
import { safeLine } from '../sanitize.js';
import { renderQueueSettings } from './queue.js';

type PrAction = ResultOf<'perPr'>['action'];

const PAST_TENSE: Record<PrAction, string> = { submit: 'submitted', cancel: 'cancelled', restart: 'restarted', edit: 'changed' };

/** `✓ #42 submitted (pending)` / `✗ #43: <message>`, one line per PR. */
export function renderOutcomes(action: PrAction, results: readonly PrOutcome[], ctx: RenderContext): string {
  return results.map((outcome) => `${outcomeLine(action, outcome, ctx)}\n`).join('');
}

function outcomeLine(action: PrAction, outcome: PrOutcome, ctx: RenderContext): string {
  const { paint } = ctx;
  if (!outcome.ok) {
    const code = outcome.error.serviceCode === undefined ? '' : ` (${outcome.error.serviceCode})`;
    return `${paint.red('✗')} ${aboutPr(outcome.pr, `${outcome.error.message}${code}`)}`;
  }
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
  const requested = requestedQueueState(change.action);
  if (change.changed === false && requested) return `${name} is already ${paintState(paint, requested)}\n`;
  switch (change.action) {
    case 'create':
    case 'update':
      lines.push(`${name} ${change.action === 'create' ? 'created' : 'updated'}`);
      if (change.queue) lines.push(renderQueueSettings(change.queue, ctx));
      break;
    case 'pause': {
      const reason = change.reason ? ` (reason: ${safeLine(change.reason)})` : '';
      lines.push(`${name} ${paintState(paint, 'paused')}${reason}`);
      break;
    }
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

/** `Impacted targets of #42 set: 3 targets (sha abc1234)`; the fallback warning is printed elsewhere. */
export function renderTargets(outcome: ResultOf<'targets'>): string {
  const sha = outcome.sha ? ` (sha ${shortSha(outcome.sha)})` : '';
  const what = outcome.impactedTargets === 'ALL' ? ' to ALL' : `: ${outcome.count} target${outcome.count === 1 ? '' : 's'}`;
  return `Impacted targets of #${outcome.pr} set${what}${sha}\n`;
}
