// Which of an API key's permissions a v2 write needs, judged by endpoint and body as the service judges them
// (api/v2 NOTES §2), in the words the service's app shows when a key is made: a 403 names the one to add.
import type { V2EndpointName } from './endpoints.js';

const MERGE = 'Merge and cancel PRs';
const PRIORITY = 'Set priority on PRs';
const SKIP_BATCHING = 'Skip batching';
const DIRECT = 'Merge PRs with direct to queue';
const SETTINGS = 'Update Merge Queue settings';

type Body = Record<string, unknown> | undefined;

const NEEDS: Partial<Record<V2EndpointName, (body: Body) => string[]>> = {
  'mergeQueues.submitPullRequest': (body) => [
    MERGE,
    ...(body?.priorityValue !== undefined || body?.priorityName !== undefined ? [PRIORITY] : []),
    ...(body?.allowBatching === false ? [SKIP_BATCHING] : []),
    ...(body?.direct === true ? [DIRECT] : []),
  ],
  'pullRequests.dequeue': () => [MERGE],
  'pullRequests.restartTests': () => [MERGE],
  'impactedTargets.upload': () => [MERGE],
  'pullRequests.reprioritize': () => [PRIORITY],
  'pullRequests.updateQueueEntry': (body) => [
    ...(body?.priorityValue !== undefined || body?.priorityName !== undefined ? [PRIORITY] : []),
    ...(body?.allowBatching !== undefined ? [SKIP_BATCHING] : []),
    ...(body?.direct !== undefined ? [DIRECT] : []),
  ],
  'mergeQueues.create': () => [SETTINGS],
  'mergeQueues.updateConfig': () => [SETTINGS],
  'mergeQueues.pause': () => [SETTINGS],
  'mergeQueues.resume': () => [SETTINGS],
  'mergeQueues.drain': () => [SETTINGS],
  'mergeQueues.switchModes': () => [SETTINGS],
  'mergeQueues.delete': () => [SETTINGS],
};

/** What to tell of a 403 on `name`: the permissions the request needed, and where a key gets them. */
export function permissionHint(name: V2EndpointName, body: unknown): string | undefined {
  const needs = NEEDS[name]?.(typeof body === 'object' && body !== null ? (body as Body) : undefined) ?? [];
  if (needs.length === 0) return undefined;
  const listed = needs.map((permission) => `"${permission}"`).join(' and ');
  return `this needs an API key with the ${listed} permission${needs.length > 1 ? 's' : ''} (an organization admin sets them in the service's Settings → Developer → API Keys)`;
}
