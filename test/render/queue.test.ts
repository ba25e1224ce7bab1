import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { COLOURED, ESC, PLAIN, ago, enqueuedPr, queue } from './fixtures.js';

const SETTINGS = [
  'state                        running',
  'branch                       main',
  'mode                         single',
  'concurrency                  2',
  'batch                        on',
  'batchingMinSize              3',
  'batchingMaxWaitTimeMinutes   5',
  'testingTimeoutMinutes        60',
  'pendingFailureDepth          1',
  'canOptimisticallyMerge       on',
  'bisectionConcurrency         4',
  'directMergeMode              off',
  'optimizationMode             bisection_skip_redundant_tests',
  'mergeMethod                  squash',
  'requiredStatuses             ci/build, ci/test',
  'commentsEnabled              on',
  'commandsEnabled              on',
  'statusCheckEnabled           off',
  'createPrsForTestingBranches  off',
].join('\n');

describe('renderText: queue', () => {
  it('in a pipe prints the enqueued pull requests in order, each title whole, then the settings', async () => {
    const text = await renderText(
      {
        kind: 'queue',
        queue: queue({
          enqueuedPullRequests: [
            enqueuedPr({ priorityName: 'urgent', priorityValue: 0, stateChangedAt: ago(42) }),
            enqueuedPr({ prNumber: 7, prTitle: 'Fix flake', prAuthor: 'bob', state: 'pending', stateChangedAt: ago(3 * 3600 + 5) }),
            enqueuedPr({ prNumber: 1234, prTitle: 'x'.repeat(80), state: 'not_ready', stateChangedAt: ago(2 * 86400) }),
          ],
        }),
      },
      PLAIN,
    );
    expect(text).toBe(
      'Enqueued pull requests (3):\n' +
        `#  PR     TITLE${' '.repeat(77)}AUTHOR  STATE      PRIORITY      IN STATE\n` +
        `1  #42    Add retries to the client${' '.repeat(57)}alice   testing    urgent (0)         42s\n` +
        `2  #7     Fix flake${' '.repeat(73)}bob     pending    medium (100)        3h\n` +
        `3  #1234  ${'x'.repeat(80)}  alice   not_ready  medium (100)        2d\n\n` +
        `${SETTINGS}\n`,
    );
    expect(text).not.toContain(ESC);
  });

  it('says so when the queue is empty', async () => {
    const text = await renderText({ kind: 'queue', queue: queue({ requiredStatuses: [] }) }, PLAIN);
    expect(text).toContain('requiredStatuses             (none)\n');
    expect(text.startsWith('No pull requests in the queue.\n\nstate ')).toBe(true);
  });

  it('shows the further settings the service returns, and null required statuses as branch protection', async () => {
    const text = await renderText(
      {
        kind: 'queue',
        queue: queue({ requiredStatuses: null, extensionEnabled: true, enqueueingLabel: 'merge-me', labelCommandsEnabled: false, stateLabelsEnabled: true }),
      },
      PLAIN,
    );
    expect(text).toContain('requiredStatuses             (branch protection)\n');
    expect(text).toContain(
      'createPrsForTestingBranches  off\n' +
        'extensionEnabled             on\n' +
        'enqueueingLabel              merge-me\n' +
        'labelCommandsEnabled         off\n' +
        'stateLabelsEnabled           on\n',
    );
    const none = await renderText({ kind: 'queue', queue: queue({ enqueueingLabel: '' }) }, PLAIN);
    expect(none).toContain('enqueueingLabel              (none)\n');
    expect(none).not.toContain('extensionEnabled');
  });

  it('colours queue and PR states only when colour is on', async () => {
    const result = { kind: 'queue', queue: queue({ state: 'paused', enqueuedPullRequests: [enqueuedPr()] }) } as const;
    expect(await renderText(result, PLAIN)).not.toContain(ESC);
    const coloured = await renderText(result, COLOURED);
    expect(coloured).toContain('\u001b[33mpaused\u001b[39m');
    expect(coloured).toContain('\u001b[33mtesting\u001b[39m');
  });
});
