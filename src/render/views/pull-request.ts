// `mq status`: one submitted PR, its ETA, and in words why it cannot start testing when it is not ready.
import { isFinalState, MERGEABILITY } from '../../model/vocabulary.js';
import type { QueueLine } from '../../model/queue.js';
import type { PullRequestCommands, SubmittedPullRequest, SubmittedPullRequestDetail, TimelineEntry } from '../../model/pull-request.js';
import { paintState } from '../colors.js';
import { formatPriority, formatSince, yesNo } from '../fields.js';
import type { RenderContext } from '../options.js';
import { placeOf, explainWaiting } from '../queue-position.js';
import { explainReadiness } from '../explain-readiness.js';
import { safeLine } from '../../text/sanitize.js';
import { wordsToWidth } from '../screen-fit.js';
import type { Eta } from '../../model/eta.js';
import type { Why } from '../../model/why.js';
import { formatEta } from '../eta-text.js';
import { whyLines } from '../why-lines.js';
import { renderPairs } from '../tables.js';
import type { PullRequestRef } from '../../model/order.js';

export function renderPullRequest(
  pr: SubmittedPullRequestDetail,
  queue: QueueLine | undefined,
  ctx: RenderContext,
  why?: Why,
  eta?: Eta,
  waitingOn?: readonly PullRequestRef[],
  commands?: PullRequestCommands,
): string {
  const { paint } = ctx;
  const pairs: Array<[string, string]> = [
    ['author', safeLine(pr.prAuthor)],
    ['state', paintState(paint, pr.state)],
    ['since', formatSince(pr.stateChangedAt, ctx.now)],
    ['priority', formatPriority(pr.priorityName, pr.priorityValue)],
    ['sha', safeLine(pr.prSha)],
    ['base branch', safeLine(pr.prBaseBranch)],
    ...(pr.prUrl ? [['url', safeLine(pr.prUrl)] as [string, string]] : []),
    ['in queue', yesNo(pr.isCurrentlySubmittedToQueue)],
  ];
  const place = queue && placeOf(pr, queue);
  if (place) {
    const where = place.position === null ? `after ${place.after}` : String(place.position);
    pairs.push(['position', `${where} of ${place.of} (${place.awaitingAdmission ? 'awaiting admission, ' : ''}queue ${place.queueState})`]);
  }
  const etaLine = formatEta(eta, pr.isCurrentlySubmittedToQueue ? pr.estimatedTimeToMerge : undefined, ctx.now);
  if (etaLine) pairs.push(['ETA', etaLine]);
  if (pr.forceEnqueued) pairs.push(['force enqueued', 'yes']);
  // What it waits on directly, where the service tells (its dispatch order): the PRs, not a count of places.
  if (waitingOn && waitingOn.length > 0) pairs.push(['waiting on', waitingOn.map((ahead) => `#${ahead.prNumber}`).join(', ')]);

  // A title's word longer than the screen is cut (the fold would keep it whole, as if it were an id); its URLs are not.
  const columns = ctx.screen?.columns;
  const title = columns ? wordsToWidth(safeLine(pr.prTitle), columns - 2) : safeLine(pr.prTitle);
  const heading = paint.bold(`#${pr.prNumber} ${title}`);
  // What holds it, the queue's own state first: a draining queue holds a not_ready PR before its gates do.
  const waiting = queue ? explainWaiting(pr, queue, commands?.resumeQueue) : [];
  const sections = [
    pr.state === 'not_ready' ? '' : section('What it is waiting for:', waiting, ctx),
    renderReadiness(pr, waiting, ctx, commands?.uploadTargets),
    why ? renderWhy(why, ctx) : '',
    pr.timeline?.length ? renderTimeline(pr.timeline, ctx) : '',
  ].filter((text) => text !== '');
  return `${heading}\n${renderPairs(pairs, paint)}\n${sections.map((text) => `\n${text}\n`).join('')}`;
}

/**
 * The service's timeline (asked for with -v), newest first as it came: when, the state, and why where it says, in
 * lower snake case as `mq history` and `--json` give it.
 */
function renderTimeline(timeline: readonly TimelineEntry[], ctx: RenderContext): string {
  const lines = timeline.map((entry) => {
    const reason = entry.reason === undefined ? '' : `  ${safeLine(entry.reason)}`;
    return `  ${safeLine(entry.timestamp)}  ${paintState(ctx.paint, entry.state)}${reason}`;
  });
  return `${ctx.paint.bold('Timeline (the service, newest first):')}\n${lines.join('\n')}`;
}

function renderWhy(why: Why, ctx: RenderContext): string {
  const heading = why.state === 'failed' ? 'Why it failed:' : 'Why it was cancelled:';
  return `${ctx.paint.bold(heading)}\n${whyLines(why, ctx, '  ').join('\n')}`;
}

// Readiness only matters while the PR is in play: after merged/failed/cancelled a stale gate would mislead.
function renderReadiness(pr: SubmittedPullRequest, waiting: readonly string[], ctx: RenderContext, uploadTargets: string | undefined): string {
  if (isFinalState(pr.state)) return '';
  const gates = explainReadiness(pr, uploadTargets);
  if (pr.state !== 'not_ready') return section('Readiness gates failing:', gates, ctx);
  const lines = [...waiting, ...gates];
  return section('Why it cannot start testing:', lines.length > 0 ? lines : [notReadyWithoutReason(pr)], ctx);
}

function notReadyWithoutReason(pr: SubmittedPullRequest): string {
  if (!pr.readiness) return 'the service gave no readiness details';
  const mergeability = pr.readiness.gitHubMergeability;
  if (mergeability === undefined) return "the host's mergeability is not reported, and is likely what it waits for";
  if (!(MERGEABILITY as readonly string[]).includes(mergeability)) {
    return `the host reports its mergeability as ${safeLine(mergeability)}, which this version of mq does not know; it is likely what it waits for`;
  }
  return 'nothing the service reports holds it: it is admitted (pending) when the service next looks at the queue';
}

function section(heading: string, lines: readonly string[], ctx: RenderContext): string {
  return lines.length === 0 ? '' : `${ctx.paint.bold(heading)}\n${lines.map((line) => `  - ${line}`).join('\n')}`;
}
