// `npm run demo` (scripts/demo.mjs) as a newcomer runs it: it ends with exit 0 and a line to paste whose settings
// are all that the README's next steps need, mq flaky's organization included (issue 21).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm run demo', () => {
  it('ends with a line to export that names the API URL, token, repository and organization', () => {
    const run = spawnSync(process.execPath, ['scripts/demo.mjs'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
    expect(run.status).toBe(0);
    const exported = run.stdout.split('\n').find((line) => line.trim().startsWith('export MQ_API_URL='));
    expect(exported).toBeDefined();
    for (const name of ['MQ_API_URL', 'MQ_TOKEN', 'MQ_REPO', 'MQ_ORG']) expect(exported).toContain(`${name}=`);
  });
});
