// What the waiting commands print, from their results and events: the pure views, and the printers that the
// command table attaches (in place on a terminal, a line per change in a pipe, NDJSON under --json).
import { describe, expect, it } from 'vitest';
import type { Outage } from '../../src/model/poll.js';
import type { DrainResult } from '../../src/model/wait-events.js';
import type { PrSighting, WaitResult } from '../../src/model/wait-events.js';
import { makePaint } from '../../src/render/colors.js';
import { renderAdmittedLine, renderDrainSummary } from '../../src/render/views/draining.js';
import { drainPrinter } from '../../src/render/drain-printer.js';
import type { ProgressOutput } from '../../src/render/progress.js';
import { waitPrinter } from '../../src/render/wait-printer.js';
import { watchPrinter } from '../../src/render/watch-printer.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { clockTime, describeOutage, renderOutageLine } from '../../src/render/views/outage.js';
import { renderChangeLine, renderWaitLines, renderWaitSummary, waitSummaryJson } from '../../src/render/views/waiting.js';
import { ESC, enqueuedPr, NOW, queue, submittedPr } from '../render/fixtures.js';

const plain = { paint: makePaint(false), now: NOW };
const coloured = { paint: makePaint(true), now: NOW };

const merged: PrSighting = { pr: 42, status: 'reached', pullRequest: submittedPr({ prNumber: 42, state: 'merged' }) };
const failed: PrSighting = {
  pr: 7,
  status: 'ended',
  pullRequest: submittedPr({
    prNumber: 7,
    state: 'cancelled',
    prBaseBranch: 'release',
    readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: false },
  }),
};
const unknown: PrSighting = { pr: 9, status: 'error', error: { code: 'not_found', status: 404, message: 'pull request #9 was never submitted' } };
const testing: PrSighting = { pr: 5, status: 'waiting', position: 1, pullRequest: submittedPr({ prNumber: 5, state: 'testing' }) };

function result(prs: PrSighting[], extra: Partial<WaitResult> = {}): WaitResult {
  return { target: 'merged', prs, ok: prs.every((s) => s.status === 'reached'), timedOut: false, timeoutMs: 60_000, ...extra };
}

function output(overrides: Partial<ProgressOutput> = {}) {
  let text = '';
  const out: ProgressOutput = {
    write: (chunk) => {
      text += chunk;
    },
    json: false,
    live: false,
    quiet: false,
    color: false,
    screen: () => ({ columns: 80, rows: 24 }),
    now: () => NOW,
    ...overrides,
  };
  return { out, text: () => text };
}

describe('the wait views', () => {
  it('names each PR with its outcome, and why one ended elsewhere', () => {
    const text = renderWaitSummary(result([merged, failed, unknown]), plain);
    expect(text).toBe(
      [
        '✓ #42 merged',
        '✗ #7 cancelled, not merged',
        "    - its base branch (release) does not match the queue's branch",
        '✗ #9: pull request #9 was never submitted',
        '',
      ].join('\n'),
    );
    expect(renderWaitSummary(result([testing], { timedOut: true }), plain)).toBe('… #5 still testing, not merged\n');
    expect(renderWaitSummary(result([merged], { target: 'testing' }), plain)).toBe('✓ #42 merged (past testing)\n');
  });

  it('on a window too short for a line per PR: those merged and those still waiting by number, each kind one line; a failure whole', () => {
    const prs = [
      ...Array.from({ length: 21 }, (_, i): PrSighting => ({ ...merged, pr: 301 + i })),
      failed,
      ...Array.from({ length: 8 }, (_, i): PrSighting => ({ ...testing, pr: 323 + i })),
    ];
    const text = renderWaitSummary(result(prs, { timedOut: true }), { ...plain, screen: { columns: 80, rows: 24 } });
    expect(text).toBe(
      [
        `✓ 21 merged: ${prs
          .slice(0, 21)
          .map((s) => `#${s.pr}`)
          .join(' ')}`,
        '✗ #7 cancelled, not merged',
        "    - its base branch (release) does not match the queue's branch",
        '… 8 not merged: #323 #324 #325 #326 #327 #328 #329 #330',
        '',
      ].join('\n'),
    );
    // Room for a line each: a line each.
    expect(renderWaitSummary(result(prs), { ...plain, screen: { columns: 80, rows: 50 } }).split('\n')).toHaveLength(32);
  });

  it('sums up as one JSON line with reasons and errors', () => {
    expect(waitSummaryJson(result([merged, failed, unknown]))).toEqual({
      summary: {
        ok: false,
        for: 'merged',
        timedOut: false,
        results: [
          { pr: 42, state: 'merged', reached: true },
          { pr: 7, state: 'cancelled', reached: false, reasons: ["its base branch (release) does not match the queue's branch"] },
          { pr: 9, state: null, reached: false, error: unknown.error },
        ],
      },
    });
  });

  it('prints a change as a plain line, coloured only when asked', () => {
    const change = { pr: 42, state: 'testing' as const, previous: 'pending' as const, at: '2026-01-01T00:00:00Z', position: 1 };
    expect(renderChangeLine(change, plain)).toBe('#42 testing (position 1)\n');
    expect(renderChangeLine({ ...change, state: 'merged', position: null }, plain)).toBe('#42 merged\n');
    expect(renderChangeLine(change, coloured)).toContain(`${ESC}33mtesting`);
  });

  it('draws one live line per PR, aligned, with time in state and position', () => {
    const lines = renderWaitLines([testing, { ...merged, pr: 1042 }], plain).split('\n');
    expect(lines[0]).toMatch(/^• #5 {5}testing {10}\d+s in state {2}position 1$/);
    expect(lines[1]).toMatch(/^✓ #1042 {2}merged/);
  });
});

describe('the printers', () => {
  it('in a pipe: a line per change but to a final state, which the summary says, and no escape code', () => {
    const { out, text } = output();
    const printer = waitPrinter(out);
    printer.events.changed({ pr: 5, state: 'testing', previous: null, at: 'x', position: 1 });
    printer.events.changed({ pr: 42, state: 'merged', previous: 'testing', at: 'x', position: null });
    printer.events.polled([testing], NOW);
    printer.finish(result([merged]));
    printer.close();
    expect(text()).toBe('#5 testing (position 1)\n✓ #42 merged\n');
  });

  it('under --json: NDJSON events, then the summary', () => {
    const { out, text } = output({ json: true, live: true });
    const printer = waitPrinter(out);
    printer.events.acted({ kind: 'perPr', action: 'submit', results: [{ pr: 42, ok: true }] });
    printer.events.changed({ pr: 42, state: 'merged', previous: 'testing', at: '2026-01-01T00:05:00Z', position: null });
    printer.finish(result([merged]));
    const lines = text()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { pr: 42, state: 'merged', previous: 'testing', at: '2026-01-01T00:05:00Z', position: null },
      { summary: { ok: true, for: 'merged', timedOut: false, results: [{ pr: 42, state: 'merged', reached: true }] } },
    ]);
  });

  it('on a terminal: redraws in place, hides the cursor, then gives the summary its place and the cursor back', () => {
    const { out, text } = output({ live: true });
    const printer = waitPrinter(out);
    printer.events.polled([testing], NOW);
    printer.events.polled([merged], NOW);
    printer.finish(result([merged]));
    printer.close();
    const written = text();
    expect(written.startsWith(`${ESC}?25l`)).toBe(true);
    expect(written).toContain(`\r${ESC}1A✓ #42`);
    expect(written.endsWith(`${ESC}?25h✓ #42 merged\n`)).toBe(true);
  });

  it('draws nothing after an interruption closed it', () => {
    const { out, text } = output({ live: true });
    const printer = waitPrinter(out);
    printer.events.polled([testing], NOW);
    printer.close();
    const before = text();
    expect(before.endsWith(`${ESC}?25h`)).toBe(true);
    printer.events.polled([merged], NOW);
    printer.close();
    expect(text()).toBe(before);
  });

  it('under --quiet: only the summary, not the submission nor the changes', () => {
    const { out, text } = output({ quiet: true, live: true });
    const printer = waitPrinter(out);
    printer.events.acted({ kind: 'perPr', action: 'submit', results: [{ pr: 42, ok: true }] });
    printer.events.changed({ pr: 42, state: 'merged', previous: null, at: 'x', position: null });
    printer.events.polled([merged], NOW);
    printer.finish(result([merged]));
    expect(text()).toBe('✓ #42 merged\n');
  });

  it('drain: the admitted PRs left per change, then drained', () => {
    const { out, text } = output();
    const printer = drainPrinter(out);
    const left = [enqueuedPr({ prNumber: 1, state: 'testing' })];
    printer.events.polled(left, true, NOW);
    printer.events.polled(left, false, NOW);
    printer.events.polled([], true, NOW);
    const done: DrainResult = { change: { kind: 'queueChange', action: 'drain', branch: 'main' }, admitted: [], ok: true, timedOut: false, timeoutMs: 1 };
    printer.finish(done);
    expect(text()).toBe('1 admitted PR left: #1 testing\n✓ Queue main drained: no admitted PR left\n');
    expect(renderAdmittedLine([], plain)).toBe('No admitted PR left\n');
    expect(renderDrainSummary({ ...done, admitted: left, ok: false, timedOut: true }, plain)).toBe('… Queue main still has 1 admitted PR: #1 testing\n');
  });

  it('drain: more than five admitted PRs are counted by state, so the line fits a terminal', () => {
    const prs = (state: 'testing' | 'pending', from: number, count: number) =>
      Array.from({ length: count }, (_, i) => enqueuedPr({ prNumber: from + i, state }));
    expect(renderAdmittedLine([...prs('testing', 216, 3), ...prs('pending', 219, 12)], plain)).toBe(
      '15 admitted PRs left: 3 testing (#216, #217, #218), 12 pending\n',
    );
    expect(renderAdmittedLine(prs('pending', 1, 5), plain)).toBe('5 admitted PRs left: #1 pending, #2 pending, #3 pending, #4 pending, #5 pending\n');
  });

  it('watch in a pipe: the table once per change, a blank line between; NDJSON under --json', () => {
    const { out, text } = output();
    const printer = watchPrinter(out);
    const q = queue();
    printer.events.polled(q, true, NOW);
    printer.events.polled(q, false, NOW);
    printer.events.polled(q, true, NOW);
    const tables = text().split('\n\nstate');
    expect(tables).toHaveLength(2);
    expect(text()).not.toContain(ESC);
    const json = output({ json: true });
    const jsonPrinter = watchPrinter(json.out);
    jsonPrinter.events.polled(q, true, NOW);
    jsonPrinter.events.polled(q, false, NOW);
    expect(
      json
        .text()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toHaveLength(1);
  });
});

describe('an outage during a wait', () => {
  const refused = new NetworkError('connection refused by 127.0.0.1:4000: is the service (or the sandbox) running?', { failure: 'refused', sent: false });
  const since = NOW - 12_000;
  const outage = (failures: number, error: Outage['error'] = refused): Outage => ({ since, failures, error });
  const at = (ms: number) => clockTime(ms);

  it('in a pipe: one line as it begins (not one per failed round), one as it ends, between the changes', () => {
    const { out, text } = output();
    const printer = waitPrinter(out);
    printer.events.changed({ pr: 5, state: 'testing', previous: null, at: 'x', position: 1 });
    printer.events.unreachable(outage(1));
    printer.events.unreachable(outage(2));
    printer.events.unreachable(outage(3, new ApiError(503, 'busy', 'getQueue')));
    printer.events.reachable(outage(3), NOW);
    printer.events.changed({ pr: 5, state: 'merged', previous: 'testing', at: 'x', position: null });
    printer.finish(result([merged]));
    expect(text()).toBe(
      [
        '#5 testing (position 1)',
        `! service unreachable since ${at(since)}: connection refused by 127.0.0.1:4000: is the service (or the sandbox) running?; still checking`,
        `✓ service reachable again at ${at(NOW)}, after 12s unreachable`,
        '✓ #42 merged',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal 40 columns wide, the line that it is back folds between words, as any line printed once (helper-112)', () => {
    const { out, text } = output({ live: true, screen: () => ({ columns: 40, rows: 24 }) });
    const printer = waitPrinter(out);
    printer.events.changed({ pr: 5, state: 'testing', previous: null, at: 'x', position: 1 });
    printer.events.unreachable(outage(1));
    printer.events.reachable(outage(1), NOW);
    const back = text()
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .split(/\r?\n|\r/)
      .filter((line) => /reachable again|unreachable$/.test(line));
    expect(back).toEqual([`✓ service reachable again at ${at(NOW)},`, '  after 12s unreachable']);
  });

  it('under --json: an event as it begins and one as it ends; the summary says since when if it timed out in one', () => {
    const { out, text } = output({ json: true });
    const printer = waitPrinter(out);
    printer.events.unreachable(outage(1, new ApiError(503, 'busy', 'getQueue')));
    printer.events.unreachable(outage(2));
    printer.events.reachable(outage(2), NOW);
    printer.events.unreachable({ since: NOW, failures: 1, error: refused });
    printer.finish(result([testing], { ok: false, timedOut: true, outage: { since: NOW, failures: 4, error: refused } }));
    const lines = text()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { service: 'unreachable', since: new Date(since).toISOString(), error: { code: 'unavailable', status: 503, message: 'busy' } },
      { service: 'reachable', at: new Date(NOW).toISOString(), since: new Date(since).toISOString(), unreachableMs: 12_000 },
      { service: 'unreachable', since: new Date(NOW).toISOString(), error: { code: 'unavailable', message: refused.message } },
      {
        summary: {
          ok: false,
          for: 'merged',
          timedOut: true,
          unreachableSince: new Date(NOW).toISOString(),
          results: [{ pr: 5, state: 'testing', reached: false }],
        },
      },
    ]);
  });

  it('on a terminal: a line under the live block, saying for how long; gone when the service is back', () => {
    const { out, text } = output({ live: true });
    const printer = waitPrinter(out);
    printer.events.polled([testing], NOW);
    const before = text().length;
    printer.events.unreachable(outage(1));
    const drawn = text().slice(before);
    expect(drawn).toContain('• #5');
    expect(drawn).toContain(`! service unreachable since ${at(since)} (for 12s): connection refused`);
    printer.events.reachable(outage(1), NOW);
    printer.events.polled([testing], NOW);
    const after = text().slice(before + drawn.length);
    expect(after).toContain(`✓ service reachable again at ${at(NOW)}, after 12s unreachable\n`);
    // The last block drawn has the PR's line and no outage line.
    expect(after.slice(after.lastIndexOf(`${ESC}J`))).not.toContain('unreachable');
  });

  it('under --quiet: nothing but the summary, as for the changes', () => {
    const { out, text } = output({ quiet: true });
    const printer = waitPrinter(out);
    printer.events.unreachable(outage(1));
    printer.events.reachable(outage(1), NOW);
    printer.finish(result([merged]));
    expect(text()).toBe('✓ #42 merged\n');
  });

  it('drain and watch show it the same way', () => {
    for (const make of [drainPrinter, watchPrinter] as const) {
      const { out, text } = output();
      const printer = make(out);
      printer.events.unreachable(outage(1));
      printer.events.reachable(outage(1), NOW);
      expect(text()).toMatch(
        /^! service unreachable since \d\d:\d\d:\d\d: connection refused.*\n✓ service reachable again at \d\d:\d\d:\d\d, after 12s unreachable\n$/,
      );
    }
  });

  it('says since when in the message of a wait that timed out in it', () => {
    expect(describeOutage(outage(9))).toBe(`the service has been unreachable since ${at(since)} (${refused.message})`);
    expect(renderOutageLine(outage(1), NOW + 3_600_000, plain.paint, true)).toContain('(for 1h)');
  });
});
