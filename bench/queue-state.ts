// A sandbox state file holding one queue with `size` PRs, prepared by an engine in the benchmark's own process.
import { writeFileSync } from 'node:fs';
import type { Repo } from '../src/api/v1/schemas.js';
import { QueueEngine } from '../src/sandbox/engine/engine.js';

export const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
export const MAIN = { repo: REPO, targetBranch: 'main' };

export function writeQueueState(size: number, file: string): void {
  const engine = QueueEngine.create({ now: Date.now() });
  engine.createQueue(MAIN, { concurrency: 5 });
  for (let number = 1; number <= size; number++) engine.submitPullRequest(MAIN, number);
  writeFileSync(file, engine.serialize());
}
