// Seeds refused: one mistake of each kind, each on one line naming the file, the path in it and what is wrong.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/lib.js';

const dir = mkdtempSync(join(tmpdir(), 'mq-seeds-'));
const QUEUE = '  - repo: acme/widgets\n    branch: main\n';

describe('a bad seed', () => {
  it.each([
    ['not YAML', 'queues: [\n', /^startSandbox: seed .*\/seed\.yaml: not valid YAML at line \d+, column \d+/],
    ['an unknown field', 'queue: []\n', /seed\.yaml: unknown field queue$/],
    ['a bad repository', 'queues:\n  - repo: widgets\n    branch: main\n', /seed\.yaml: queues\[0\]\.repo: "widgets" must be/],
    ['a setting out of range', `queues:\n${QUEUE}    settings:\n      concurrency: 0\n`, /seed\.yaml: queues\[0\]\.settings\.concurrency: /],
    ['a queue twice', `queues:\n${QUEUE}${QUEUE}`, /seed\.yaml: queues\[1\]: .*already/i],
    [
      'a PR fact of the wrong kind',
      'pullRequests:\n  - repo: acme/widgets\n    number: 1\n    testOutcome: maybe\n',
      /seed\.yaml: pullRequests\[0\]\.testOutcome: /,
    ],
    ['a PR submitted to no queue', 'pullRequests:\n  - repo: acme/widgets\n    number: 1\n    submit: { branch: main }\n', /seed\.yaml: pullRequests\[0\]: /],
    ['a flaky test that is not there', 'flakyTests:\n  - repo: acme/widgets\n    testId: nope\n    ticket: KAN-1\n', /seed\.yaml: flakyTests\[0\]: /],
    ['a permission that is none', 'keys:\n  - key: trunk_v2_a\n    permissions: [admin]\n', /seed\.yaml: keys\[0\]\.permissions/],
    ['a webhook that is no URL', 'webhooks:\n  - url: nowhere\n', /seed\.yaml: webhooks\[0\]\.url: /],
    // As --webhook and the library refuse it (until helper-129 a seed took any URL zod parses: ftp:, mailto:).
    ['a webhook that is not http', 'webhooks:\n  - url: ftp://example.com/hooks\n', /seed\.yaml: webhooks\[0\]\.url: not an http:\/\/ or https:\/\/ URL$/],
    [
      'a webhook secret that is none',
      'webhooks:\n  - url: http://localhost:3000/hooks\n    secret: whsec_short\n',
      /seed\.yaml: webhooks\[0\]\.secret: not a signing secret: give base64 of 24 to 64 bytes, whsec_ before it or not, or leave it out/,
    ],
    ['a graph soft cap of none', 'graphSoftCap: 0\n', /seed\.yaml: graphSoftCap: /],
  ])('%s is refused on one line naming the path', async (_kind, text, message) => {
    const file = join(dir, 'seed.yaml');
    writeFileSync(file, text);
    const refusal = await startSandbox({ seed: file }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(message);
    expect(refusal).toContain(file);
    expect(refusal).not.toContain('\n');
  });

  it('is refused as JSON too, by its extension', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(file, '{"queues": [}');
    await expect(startSandbox({ seed: file })).rejects.toThrow(/^startSandbox: seed .*seed\.json: not valid JSON/);
  });

  it('is refused when it cannot be read, naming the file', async () => {
    await expect(startSandbox({ seed: join(dir, 'absent.yaml') })).rejects.toThrow(/^startSandbox: seed .*absent\.yaml: cannot be read \(/);
  });

  it('is a RangeError, as every option it cannot take, and so is a state file it cannot use (helper-96: the command line’s ConfigError)', async () => {
    await expect(startSandbox({ seed: { queues: [{ repo: 'a/b' }] } as never })).rejects.toBeInstanceOf(RangeError);
    await expect(startSandbox({ state: dir })).rejects.toThrow(new RangeError(`startSandbox: sandbox state ${dir}: it is a folder, not a file`));
  });
});
