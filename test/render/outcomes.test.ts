import { describe, expect, it } from 'vitest';
import type { CommandResult, PrOutcome } from '../../src/model/result.js';
import { renderText } from '../../src/render/text.js';
import { COLOURED, ESC, PLAIN, updatedQueue } from './fixtures.js';

const outcomes: PrOutcome[] = [
  { pr: 42, ok: true },
  { pr: 44, ok: true, state: 'not_ready' },
  { pr: 43, ok: false, error: { code: 'not_found', status: 404, message: 'pull request not found' } },
];

describe('renderText: perPr', () => {
  it.each([
    ['submit', 'submitted'],
    ['cancel', 'cancelled'],
    ['restart', 'restarted'],
  ] as const)('reports each PR of %s on its own line', async (action, verb) => {
    const text = await renderText({ kind: 'perPr', action, results: outcomes }, PLAIN);
    expect(text).toBe(`✓ #42 ${verb}\n✓ #44 ${verb} (not_ready)\n✗ #43: pull request not found\n`);
    expect(text).not.toContain(ESC);
  });

  it('colours the marks when colour is on', async () => {
    const text = await renderText({ kind: 'perPr', action: 'submit', results: outcomes }, COLOURED);
    expect(text).toContain('\u001b[32m✓\u001b[39m #42 submitted');
    expect(text).toContain('\u001b[31m✗\u001b[39m #43');
  });

  it('keeps a service message on one line and harmless', async () => {
    const text = await renderText(
      { kind: 'perPr', action: 'cancel', results: [{ pr: 1, ok: false, error: { code: 'refused', message: 'bad\n\u001b[2Jthing' } }] },
      PLAIN,
    );
    expect(text).toBe('✗ #1: bad \uFFFD[2Jthing\n');
  });
});

describe('renderText: perPr, PRs already queued or not in the queue', () => {
  it('says a PR was already queued, with its state and position when the service gave them', async () => {
    const results: PrOutcome[] = [
      { pr: 42, ok: true, alreadyQueued: true, state: 'testing', position: 1 },
      { pr: 43, ok: true, alreadyQueued: true, state: 'pending', position: null },
      { pr: 44, ok: true, alreadyQueued: true, state: null, position: null },
    ];
    expect(await renderText({ kind: 'perPr', action: 'submit', results }, PLAIN)).toBe(
      '✓ #42 already queued (testing, position 1)\n✓ #43 already queued (pending)\n✓ #44 already queued\n',
    );
  });

  it("prints mq's own sentences about a PR without naming it twice", async () => {
    const results: PrOutcome[] = [
      { pr: 42, ok: false, error: { code: 'not_found', status: 404, message: '#42 has already merged: it is no longer in the queue' } },
      { pr: 4, ok: false, error: { code: 'not_found', status: 404, message: '#42 is someone else' } },
    ];
    expect(await renderText({ kind: 'perPr', action: 'cancel', results }, PLAIN)).toBe(
      '✗ #42 has already merged: it is no longer in the queue\n✗ #4: #42 is someone else\n',
    );
  });
});

describe('renderText: queueChange', () => {
  type QueueChange = Extract<CommandResult, { kind: 'queueChange' }>;
  const change = (extra: Omit<QueueChange, 'kind' | 'branch'>) => renderText({ kind: 'queueChange', branch: 'main', ...extra }, PLAIN);

  it('confirms the maintenance actions in one line', async () => {
    expect(await change({ action: 'pause', reason: 'deploy freeze' })).toBe(
      'Queue main paused\nReason: deploy freeze (printed only: the service stores no reason)\n',
    );
    expect(await change({ action: 'pause' })).toBe('Queue main paused\n');
    expect(await change({ action: 'drain' })).toBe('Queue main is draining\n');
    expect(await change({ action: 'resume' })).toBe('Queue main resumed\n');
    expect(await change({ action: 'create' })).toBe('Queue main created\n');
    expect(await change({ action: 'delete' })).toBe('Queue main deleted\n');
  });

  it('prints the settings after an update', async () => {
    const text = await change({ action: 'update', queue: updatedQueue({ concurrency: 5 }) });
    expect(text.startsWith('Queue main updated\nstate                        running\n')).toBe(true);
    expect(text).toContain('concurrency                  5\n');
    expect(text.endsWith('createPrsForTestingBranches  off\n')).toBe(true);
  });

  it('lists the cancelled PRs before the deletion', async () => {
    const text = await change({
      action: 'delete',
      cancelled: [
        { pr: 42, ok: true },
        { pr: 43, ok: true },
      ],
    });
    expect(text).toBe('✓ #42 cancelled\n✓ #43 cancelled\nQueue main deleted\n');
  });

  it('points out a state other than the one asked for', async () => {
    const text = await change({ action: 'resume', queue: updatedQueue({ state: 'switching_modes' }) });
    expect(text).toBe('Queue main resumed\nThe service reports the queue as switching_modes.\n');
  });

  it('colours the new state only when colour is on', async () => {
    const text = await renderText({ kind: 'queueChange', branch: 'main', action: 'pause' }, COLOURED);
    expect(text).toBe('Queue main \u001b[33mpaused\u001b[39m\n');
  });
});

describe('renderText: targets', () => {
  it('counts the targets and names the commit', async () => {
    const result: CommandResult = { kind: 'targets', pr: 42, sha: 'abc1234def5678', count: 3, impactedTargets: ['//a', '//b', '//c'], fellBackToAll: false };
    expect(await renderText(result, PLAIN)).toBe('Impacted targets of #42 set: 3 targets (sha abc1234)\n');
    expect(await renderText({ ...result, count: 1, impactedTargets: ['//a'] }, PLAIN)).toBe('Impacted targets of #42 set: 1 target (sha abc1234)\n');
    expect(await renderText({ ...result, count: 0, impactedTargets: [], sha: undefined }, PLAIN)).toBe('Impacted targets of #42 set: 0 targets\n');
    // A file's list is not read back for a table: the count alone says how many were sent.
    expect(await renderText({ ...result, count: 250_000, impactedTargets: undefined }, PLAIN)).toBe(
      'Impacted targets of #42 set: 250000 targets (sha abc1234)\n',
    );
  });

  it('says ALL', async () => {
    expect(await renderText({ kind: 'targets', pr: 42, count: 0, impactedTargets: 'ALL', fellBackToAll: true }, PLAIN)).toBe(
      'Impacted targets of #42 set to ALL\n',
    );
  });
});

describe('renderText: config', () => {
  it('prints every setting with its origin, then the files read', async () => {
    const text = await renderText(
      {
        kind: 'config',
        entries: [
          { key: 'apiUrl', value: 'https://api.trunk.io/v1', origin: 'default' },
          { key: 'repo', value: 'github.com/acme/app', origin: 'git remote origin' },
          { key: 'org', value: undefined, origin: '-' },
        ],
        files: ['/home/a/.config/mq/config.yaml', '/src/app/.mqrc'],
      },
      PLAIN,
    );
    expect(text).toBe(
      'KEY     VALUE                    ORIGIN\n' +
        'apiUrl  https://api.trunk.io/v1  default\n' +
        'repo    github.com/acme/app      git remote origin\n' +
        'org     (not set)                -\n' +
        '\n' +
        'Config files read:\n' +
        '  /home/a/.config/mq/config.yaml\n' +
        '  /src/app/.mqrc\n',
    );
  });

  it('says when no file was read', async () => {
    expect((await renderText({ kind: 'config', entries: [], files: [] }, PLAIN)).endsWith('\n\nConfig files read: none\n')).toBe(true);
  });
});
