// The workload file: a hand-written one needs only the arrival rate and the median run; a bad one is refused in
// one line naming the file and the field.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkloadFile } from '../../src/config/workload-file.js';
import type { FitWorkload } from '../../src/simulate/fit-run.js';

async function file(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'mq-workload-')), name);
  await writeFile(path, text);
  return path;
}

describe('a workload file', () => {
  it('fills what a hand-written one leaves out, and is what a simulation plays', async () => {
    const workload: FitWorkload = await readWorkloadFile(await file('w.yaml', 'arrivals:\n  perHour: 20\ntestDurationSeconds:\n  p50: 1800\n'));
    expect(workload).toMatchObject({
      arrivals: { perHour: 20, byHourOfDay: new Array(24).fill(1), byDayOfWeek: new Array(7).fill(1) },
      testDurationSeconds: { p50: 1800, p90: 1800 },
      failureRate: 0,
      priorities: { medium: 1 },
      impactedTargets: null,
    });
  });

  it.each([
    [
      'w.yaml',
      'arrivals:\n  perHour: 20\n  byHourOfDay: [1, 2]\ntestDurationSeconds:\n  p50: 60\n',
      'arrivals.byHourOfDay: 24 factors, one an hour of the day from 00:00 UTC',
    ],
    ['w.json', '{"arrivals": {"perHour": 1}, "testDurationSeconds": {"p50": 60}, "flakeRate": 2}', 'flakeRate: Too big'],
    [
      'w.json',
      '{"arrivals": {"perHour": 1}, "testDurationSeconds": {"p50": 60}, "failureRate": 0.6, "flakeRate": 0.6}',
      'flakeRate: failureRate and flakeRate add up to more than 1',
    ],
    [
      'w.yaml',
      'arrivals:\n  perHour: 1\ntestDurationSeconds:\n  p50: 60\npriorities:\n  highest: 1\n',
      'priorities: a priority is one of urgent, high, medium, low',
    ],
    ['w.yaml', 'arrivals: {perHour: 1}\ntestDuration: 60\n', 'testDurationSeconds: missing; unknown field testDuration'],
    ['w.json', '{"arrivals": ', 'not valid JSON'],
  ])('refuses %s holding a mistake, in one line naming the field', async (name, text, words) => {
    const path = await file(name, text);
    const refusal = await readWorkloadFile(path).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refusal).toContain(`workload ${path}: `);
    expect(refusal).toContain(words);
    expect(refusal).not.toContain('\n');
  });

  it('refuses a file that cannot be read', async () => {
    await expect(readWorkloadFile('/nonexistent/w.yaml')).rejects.toThrow(/^workload \/nonexistent\/w.yaml: cannot be read/);
  });
});
