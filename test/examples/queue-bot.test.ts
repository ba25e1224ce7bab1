// examples/queue-bot's workflow, so that it cannot rot: each step is shell bash reads, the test job runs what
// scripts/check-package.sh runs on the packed tarball (there, the example's suites import and require
// mq/sandbox), and the commands it names run here with the built mq on PATH: the rehearsal under
// `mq sandbox exec`, and the scheduled job's submission with a stand-in for gh.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultLoaders } from 'cosmiconfig';
import { describe, expect, it } from 'vitest';
import { isolatedDir, shimDir } from '../support/cli.js';

const BOT = resolve(import.meta.dirname, '../../examples/queue-bot');
const read = (file: string) => readFileSync(join(BOT, file), 'utf8');

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = defaultLoaders['.yaml']('queue-bot.yml', read('.github/workflows/queue-bot.yml')) as { jobs: Record<string, { steps: Step[] }> };
const runs = (job: string) => workflow.jobs[job]!.steps.filter((step) => step.run !== undefined);

/** Runs a step's shell in the example's folder, with the built mq and `gh` (a stand-in, when given) on PATH. */
function bash(command: string, env: Record<string, string> = {}, gh?: string) {
  const bin = shimDir();
  if (gh) {
    writeFileSync(join(bin, 'gh'), gh);
    chmodSync(join(bin, 'gh'), 0o755);
  }
  const home = isolatedDir();
  const child = spawnSync('bash', ['-c', command], { cwd: BOT, encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, ...env } });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('examples/queue-bot/package.json', () => {
  it("takes mq from its packed tarball, and vitest and vite at the versions this checkout installs, which npm's cache holds", () => {
    const example = JSON.parse(read('package.json')) as { devDependencies: Record<string, string>; overrides: Record<string, string> };
    const lock = JSON.parse(readFileSync(resolve(BOT, '../../package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    expect(example.devDependencies).toEqual({ mq: 'file:vendor/mq.tgz', vitest: lock.packages['node_modules/vitest']!.version });
    expect(example.overrides).toEqual({ vite: lock.packages['node_modules/vite']!.version });
  });
});

describe('examples/queue-bot/.github/workflows/queue-bot.yml', () => {
  it('is shell that bash reads, in every step', () => {
    for (const { run } of Object.keys(workflow.jobs).flatMap(runs)) expect(spawnSync('bash', ['-n', '-c', run!], { encoding: 'utf8' }).stderr).toBe('');
  });

  it('tests as scripts/check-package.sh does with the packed tarball: install, npm test, npm run rehearse', () => {
    expect(runs('test').map((step) => step.run!.trim())).toEqual(['npm ci', 'npm test', 'npm run rehearse']);
    expect(readFileSync(resolve(BOT, '../../scripts/check-package.sh'), 'utf8')).toContain('npm test && npm run rehearse');
  });

  it('rehearses the bot under mq sandbox exec against its seed, passing the bot’s status through', () => {
    const rehearse = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.rehearse!;
    expect(rehearse).toMatch(/^mq sandbox exec .*--seed test\/seed\.yaml -- node queue-bot\.js /);
    expect(bash(rehearse)).toEqual({ code: 0, stdout: '#1 submitted\n#2 submitted\n#3 submitted\n#4 in the queue (testing)\n', stderr: '' });
    // A PR the seed's queue refuses (another branch's) makes the bot, and so the step, fail.
    expect(bash(rehearse.replace('--repo acme/widgets', '--repo acme/widgets --branch release')).code).toBe(1);
  });

  it('submits, on schedule, the PRs gh lists as labelled merge, with the token in the variable the bot reads', () => {
    const [step] = runs('submit');
    expect(Object.keys(step!.env!)).toContain('TRUNK_API_KEY');
    const gh = `#!/bin/sh\n[ "$*" = "pr list --label merge --json number --jq .[].number" ] || { echo "gh $*" >&2; exit 64; }\nprintf '1\\n4\\n'\n`;
    const run = bash(
      `mq sandbox exec --clock manual --seed test/seed.yaml -- bash -c '${step!.run!.replaceAll("'", "'\\''")}'`,
      { GITHUB_REPOSITORY: 'acme/widgets' },
      gh,
    );
    expect(run).toEqual({ code: 0, stdout: '#1 submitted\n#4 in the queue (testing)\n', stderr: '' });
  });
});
