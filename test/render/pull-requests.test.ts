import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { COLOURED, ESC, PLAIN, ago, enqueuedPr } from './fixtures.js';

describe('renderText: pullRequests (mq list)', () => {
  const prs = [
    enqueuedPr({ state: 'merged', stateChangedAt: ago(90) }),
    enqueuedPr({
      prNumber: 43,
      prTitle: 'Drop Node 18',
      prAuthor: 'carol',
      state: 'cancelled',
      priorityName: 'low',
      priorityValue: 200,
      stateChangedAt: ago(7200),
    }),
  ];

  it('prints one row per PR', async () => {
    const text = await renderText({ kind: 'pullRequests', pullRequests: prs }, PLAIN);
    expect(text).toBe(
      'PR   TITLE                      AUTHOR  STATE      PRIORITY      CHANGED\n' +
        '#42  Add retries to the client  alice   merged     medium (100)   1m ago\n' +
        '#43  Drop Node 18               carol   cancelled  low (200)      2h ago\n',
    );
    expect(text).not.toContain(ESC);
  });

  it('says when nothing matched', async () => {
    expect(await renderText({ kind: 'pullRequests', pullRequests: [] }, PLAIN)).toBe('No pull requests found.\n');
  });

  it('colours states when colour is on', async () => {
    expect(await renderText({ kind: 'pullRequests', pullRequests: prs }, COLOURED)).toContain('\u001b[32mmerged\u001b[39m');
  });
});
