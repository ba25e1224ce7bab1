import { describe, expect, it } from 'vitest';
import { errorAnswer, jsonAnswer } from '../../src/sandbox/io/http.js';
import { ReadCache } from '../../src/sandbox/io/read-cache.js';
import { findRoute } from '../../src/sandbox/io/routes.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { manualClock } from '../../src/sandbox/io/clock.js';

const route = findRoute('/v1/getQueue')!;
const other = findRoute('/v1/getSubmittedPullRequest')!;

describe('the cache of read answers', () => {
  it('keeps an answer by route and body text until cleared', () => {
    const cache = new ReadCache();
    const answer = jsonAnswer({ a: 1 });
    cache.set(route, '{"x":1}', answer);
    expect(cache.get(route, '{"x":1}')).toBe(answer);
    expect(cache.get(route, '{"x": 1}')).toBeUndefined();
    expect(cache.get(other, '{"x":1}')).toBeUndefined();
    cache.clear();
    expect(cache.get(route, '{"x":1}')).toBeUndefined();
  });

  it('is bounded: long bodies are not kept, and a full cache starts afresh', () => {
    const cache = new ReadCache();
    cache.set(route, 'x'.repeat(4096), errorAnswer(200, 'kept?'));
    expect(cache.get(route, 'x'.repeat(4096))).toBeUndefined();
    for (let i = 0; i < 1024; i++) cache.set(route, String(i), jsonAnswer(i));
    expect(cache.get(route, '0')).toBeDefined();
    cache.set(route, 'one more', jsonAnswer('more'));
    expect(cache.get(route, '0')).toBeUndefined();
    expect(cache.get(route, 'one more')).toBeDefined();
    const huge = jsonAnswer('y'.repeat(17 * 1024 * 1024));
    cache.set(route, 'huge', huge);
    expect(cache.get(route, 'huge')).toBeUndefined();
  });

  it('takes a metrics read for a read, never kept (its windows end now), so that it drops no answer kept', () => {
    const metrics = findRoute('/v1/getMergeQueueMetrics')!;
    expect(metrics.isRead).toBe(true);
    const handled = metrics.handle({ engine: QueueEngine.create({ now: 0 }), clock: manualClock(0), query: new URLSearchParams(), body: '' });
    expect(handled).toMatchObject({ answer: { status: 200 }, timely: true });
  });
});
