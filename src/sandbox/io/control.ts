// The sandbox's own control routes: `advance` moves a manual clock, `pullRequests` sets a PR's facts on the host,
// `graphSoftCap` how much of a queue's line its graph admits, `webhooks/events` lists the last webhooks the engine
// made (docs/sandbox.md#webhooks).
import * as z from 'zod';
import { type EventList, WEBHOOK_ROUTES } from '../../api/sandbox-webhooks.js';
import { PrNumber, Repo } from '../../api/shapes.js';
import { GraphSoftCapChange, perform, RecordedDescription, TIME_PASSED } from '../engine/changes.js';
import { checkAdvance } from '../engine/engine.js';
import { jsonAnswer } from './http.js';
import { parse, type Route } from './route.js';

/** The body of `POST /_sandbox/advance`. */
export const AdvanceRequest = z.object({ seconds: z.number().min(0) });

/** The body of `POST /_sandbox/pullRequests`: facts to set; the ones left out keep their value. */
export const PullRequestDescription = RecordedDescription.extend({ repo: Repo, number: PrNumber });

/** The control routes' bodies, by name: `startSandbox` (lib.ts) takes the same. */
export type ControlBodies = {
  advance: z.input<typeof AdvanceRequest>;
  pullRequests: z.input<typeof PullRequestDescription>;
  graphSoftCap: z.input<typeof GraphSoftCapChange>;
};

export type ControlName = keyof ControlBodies;

export const CONTROLS: Readonly<Record<ControlName | typeof WEBHOOK_ROUTES.events.path, Route>> = {
  advance: {
    method: 'POST',
    handle: ({ engine, clock, body }) => {
      const parsed = parse(AdvanceRequest, body);
      if ('answer' in parsed) return parsed;
      // Checked before the clock moves: a refused advance leaves the time as it was.
      checkAdvance(clock.now(), parsed.input.seconds);
      clock.advance(parsed.input.seconds);
      engine.tick(clock.now());
      return { answer: jsonAnswer({ now: engine.now.toISOString() }), change: TIME_PASSED };
    },
  },
  pullRequests: {
    method: 'POST',
    handle: ({ engine, body }) => {
      const parsed = parse(PullRequestDescription, body);
      if ('answer' in parsed) return parsed;
      const { result, change } = perform(engine, 'describePullRequest', parsed.input);
      return { answer: jsonAnswer(result), change };
    },
  },
  graphSoftCap: {
    method: 'POST',
    handle: ({ engine, body }) => {
      const parsed = parse(GraphSoftCapChange, body);
      if ('answer' in parsed) return parsed;
      const { change } = perform(engine, 'setGraphSoftCap', parsed.input);
      return { answer: jsonAnswer({ cap: engine.graphSoftCap }), change };
    },
  },
  [WEBHOOK_ROUTES.events.path]: {
    method: WEBHOOK_ROUTES.events.method,
    handle: ({ engine }) => ({ answer: jsonAnswer({ events: engine.recentEvents() } satisfies z.infer<typeof EventList>) }),
  },
};
