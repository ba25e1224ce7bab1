// What `mq wait` and `submit --wait` show: the live block (one line per PR), the line a pipe gets per change,
// the NDJSON event, and the summary at the end, as text or JSON. Pure: colour and "now" come in.
import type { PrChange, PrSighting, WaitResult } from '../../model/wait-events.js';
import { paintState } from '../colors.js';
import { ageSince } from '../../text/durations.js';
import type { RenderContext } from '../options.js';
import { aboutPr } from '../fields.js';
import { outageSummary } from './outage.js';
import type { SubmittedPullRequest } from '../../model/pull-request.js';
import type { Eta } from '../../model/eta.js';
import { clock, formatEtaShort } from '../eta-text.js';
import { explainReadiness, readinessInBrief } from '../explain-readiness.js';
import { safeLine } from '../../text/sanitize.js';
import { whyLines } from '../why-lines.js';
import { textWidth } from '../text-width.js';

// The longest state word, so that the columns after it line up.
const STATE_WIDTH = 'pending_failure'.length;

/** A line per PR (`• #42  testing  4m in state  position 1  eta ~14:32 (in 25m)`); too wide, padding, age, then position go: the ETA stays. */
export function renderWaitLines(prs: readonly PrSighting[], ctx: RenderContext, columns?: number): string {
  // Numbers and positions padded to the widest (level 0), so that the lines stay in columns past #9 and position 9.
  const widest = { pr: Math.max(...prs.map((s) => String(s.pr).length)) + 1, position: Math.max(0, ...prs.map((s) => placeText(s).length)) };
  let lines: string[] = [];
  for (let level = 0; level < 4; level++) {
    lines = prs.map((sighting) => waitLine(sighting, widest, level, ctx));
    if (columns === undefined || lines.every((line) => textWidth(line) <= columns)) break;
  }
  return lines.map((line) => `${line}\n`).join('');
}

function waitLine(sighting: PrSighting, widest: { pr: number; position: number }, level: number, ctx: RenderContext): string {
  const { paint } = ctx;
  const head = `${mark(sighting, ctx)} ${level === 0 ? `#${sighting.pr}`.padEnd(widest.pr) : `#${sighting.pr}`}`;
  if (sighting.error) return `${head}  ${safeLine(withoutPrName(sighting.pr, sighting.error.message))}`;
  const pr = sighting.pullRequest;
  if (!pr) return `${head}  ${paint.dim('looking it up')}`;
  const word = pr.state ?? 'unknown';
  const state = `${paintState(paint, pr.state)}${level === 0 ? ' '.repeat(Math.max(0, STATE_WIDTH - word.length)) : ''}`;
  const at = placeText(sighting);
  const position = level > 2 || at === '' ? '' : `  position ${level === 0 ? at.padStart(widest.position) : at}`;
  // A PR still waiting counts its time in the state; one that ended says when, a time that no longer moves.
  if (sighting.status !== 'waiting') return `${head}  ${state}  ${paint.dim(endedAt(pr.stateChangedAt, ctx.now))}${position}`;
  const next = outlook(pr, sighting.eta);
  // An age is at most three characters ("59s", "23h"): padded, the positions after it stay in a column.
  const age = level > 1 ? '' : `  ${paint.dim(`${ageSince(pr.stateChangedAt, ctx.now).padStart(level === 0 ? 3 : 0)} in state`)}`;
  return `${head}  ${state}${age}${position}${next && `  ${next}`}`;
}

/** `at 14:32`, when a PR reached its final state; '-' when the service sent no time. */
function endedAt(timestamp: string | undefined, now: number): string {
  const at = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  return Number.isNaN(at) ? '-' : `at ${clock(new Date(at).toISOString(), new Date(now).toISOString())}`;
}

/** What comes next, in brief: what holds a not_ready PR, else when it merges; '' when neither is known. */
function outlook(pr: SubmittedPullRequest | undefined, eta: Eta | undefined): string {
  if (pr?.state === 'not_ready') {
    const gates = readinessInBrief(pr);
    return gates.length === 0 ? '' : `blocked: ${gates.join(', ')}`;
  }
  return formatEtaShort(eta);
}

function mark(sighting: PrSighting, ctx: RenderContext): string {
  switch (sighting.status) {
    case 'reached':
      return ctx.paint.green('✓');
    case 'ended':
    case 'error':
      return ctx.paint.red('✗');
    case 'waiting':
      return ctx.paint.dim('•');
  }
}

/** A PR's place in a wait's line: its position, `>110` past the PRs the service names (some awaiting admission), or none. */
function placeText(sighting: Pick<PrSighting, 'position' | 'after'>): string {
  return sighting.position !== undefined ? String(sighting.position) : sighting.after !== undefined ? `>${sighting.after}` : '';
}

/** What a pipe gets per change: `#42 testing (position 1)`, then what comes next: `, eta ~14:32 (in 25m)`. */
export function renderChangeLine(change: PrChange, ctx: RenderContext): string {
  const position =
    change.position !== null ? ` (position ${change.position})` : change.after !== undefined ? ` (after ${change.after}, awaiting admission)` : '';
  const next = outlook(change.pullRequest, change.eta);
  return `#${change.pr} ${paintState(ctx.paint, change.state)}${position}${next && `, ${next}`}\n`;
}

/** A change's NDJSON line (`{"pr":42,"state":"testing",…}`), with `eta` and `blocked` (a not_ready PR's gates) exactly when its text has them. */
export function changeJson(change: PrChange): unknown {
  const line = {
    pr: change.pr,
    state: change.state,
    previous: change.previous,
    at: change.at,
    position: change.position,
    ...(change.after !== undefined && { after: change.after }),
  };
  if (change.pullRequest?.state === 'not_ready') {
    const gates = readinessInBrief(change.pullRequest);
    return gates.length === 0 ? line : { ...line, blocked: gates };
  }
  return formatEtaShort(change.eta) === '' ? line : { ...line, eta: change.eta };
}

/** A line per PR, reached, ended (with its reasons) or waiting; on a short window the reached and the waiting are each one line of numbers. */
export function renderWaitSummary(result: WaitResult, ctx: RenderContext): string {
  const { paint } = ctx;
  const lines: string[] = [];
  const rows = ctx.screen?.rows;
  const reached = result.prs.filter((s) => s.status === 'reached' && !s.why);
  const waiting = result.prs.filter((s) => s.status === 'waiting');
  const brief = rows !== undefined && result.prs.length >= rows - 1;
  const numbers = (prs: readonly PrSighting[]) => prs.map((s) => `#${s.pr}`).join(' ');
  if (brief && reached.length > 0) lines.push(`${paint.green('✓')} ${reached.length} ${result.target}: ${numbers(reached)}`);
  for (const sighting of result.prs) {
    if (brief && (reached.includes(sighting) || waiting.includes(sighting))) continue;
    const name = `#${sighting.pr}`;
    const state = sighting.pullRequest?.state ?? sighting.submittedState;
    switch (sighting.status) {
      case 'reached': {
        const past = state === result.target ? '' : ` (past ${result.target})`;
        lines.push(`${paint.green('✓')} ${name} ${paintState(paint, state)}${past}`);
        if (sighting.why) lines.push(...whyLines(sighting.why, ctx, '    '));
        break;
      }
      case 'ended':
        lines.push(`${paint.red('✗')} ${name} ${paintState(paint, state)}, not ${result.target}`);
        lines.push(...reasonsOf(sighting).map((reason) => `    - ${reason}`));
        if (sighting.why) lines.push(...whyLines(sighting.why, ctx, '    '));
        break;
      case 'error':
        // A refused submit was said as the submit answered it (its code too): not again.
        if (!sighting.refusedAtSubmit) lines.push(`${paint.red('✗')} ${aboutPr(sighting.pr, sighting.error?.message ?? 'unknown')}`);
        break;
      case 'waiting': {
        const still = state === undefined ? 'not seen yet' : `still ${paintState(paint, state)}`;
        lines.push(`${paint.yellow('…')} ${name} ${still}, not ${result.target}`);
        break;
      }
    }
  }
  if (brief && waiting.length > 0) lines.push(`${paint.yellow('…')} ${waiting.length} not ${result.target}: ${numbers(waiting)}`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The last NDJSON line: `{"summary":{"ok":true,"for":"merged","timedOut":false,"results":[…]}}`, and `unreachableSince` after an outage's timeout. */
export function waitSummaryJson(result: WaitResult): unknown {
  const results = result.prs.map((sighting) => {
    const reasons = sighting.status === 'ended' ? reasonsOf(sighting) : [];
    return {
      pr: sighting.pr,
      state: sighting.pullRequest?.state ?? sighting.submittedState ?? null,
      reached: sighting.status === 'reached',
      ...(reasons.length > 0 ? { reasons } : {}),
      ...(sighting.why ? { why: sighting.why } : {}),
      ...(sighting.alreadyQueued ? { alreadyQueued: true } : {}),
      ...(sighting.error ? { error: sighting.error } : {}),
    };
  });
  return { summary: { ok: result.ok, for: result.target, timedOut: result.timedOut, ...outageSummary(result.outage), results } };
}

/** The live line names the PR in its own column; a message that begins with the name leaves it out. */
function withoutPrName(pr: number, message: string): string {
  return message.startsWith(`#${pr} `) ? message.slice(`#${pr} `.length) : message;
}

function reasonsOf(sighting: PrSighting): string[] {
  return sighting.pullRequest ? explainReadiness(sighting.pullRequest, sighting.commands?.uploadTargets) : [];
}
