// The sandbox answers as the hosted service does at the boundaries its documents draw: what the service accepts
// it accepts, what the service refuses it refuses, with the same status. The documents are the published
// description (test/support/openapi, a snapshot) and the live behaviour SEMANTICS.md records, which wins
// where the two disagree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { validateRequest } from '../support/openapi/validate.js';

const TOKEN = 'parity';
const repo = { host: 'github.com', owner: 'acme', name: 'parity' };
const MAIN = { repo, targetBranch: 'main' };

let sandbox: RunningSandbox;

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${sandbox.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual' });
  expect((await post('createQueue', MAIN)).status).toBe(200);
});
afterAll(() => sandbox?.close());

describe('submitPullRequest', () => {
  // openapi.json: "priority": {"anyOf": [{"type": "integer", …}, {"type": "string"}, {"type": "null"}]}.
  it('takes a null priority, which the published description allows, as no priority: the default', async () => {
    const body = { ...MAIN, pr: { number: 7 }, priority: null };
    expect(validateRequest('submitPullRequest', body)).toEqual([]);
    const answer = await post('submitPullRequest', body);
    expect(answer).toEqual({ status: 200, text: '{}' });
    const submitted = JSON.parse((await post('getSubmittedPullRequest', { ...MAIN, pr: { number: 7 } })).text);
    expect(submitted).toMatchObject({ priorityName: 'medium', priorityValue: 100, skipTheLine: false });
  });
});
