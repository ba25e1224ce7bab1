// mq doctor's checks of the repository's CI, read offline from its GitHub Actions workflows (docs/commands.md, mq
// doctor): do those making the required statuses run on the test branches, do the statuses name jobs, is a testing
// timeout set. What the files cannot show (another CI, an app's status, branch protection) is said, never guessed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGitRoot } from '../../config/git.js';
import { EXIT, type ExitCode, MqError, systemErrorWords } from '../../errors.js';
import type { QueueFacts } from '../../model/queue.js';
import type { DoctorCheck } from '../../model/result.js';

export const CI_CHECK_NAMES = ['workflows', 'testBranches', 'requiredStatuses', 'testingTimeout'] as const;
type CiCheckName = (typeof CI_CHECK_NAMES)[number];

/** The service tests a PR on `trunk-merge/pr-<n>/<uuid>`, a batch on `trunk-merge/pr-<n>-<m>/<uuid>`: a workflow must run on both. */
const TEST_BRANCHES = ['trunk-merge/pr-42/3f2b6c1e-8d4a-4f7e-9b1a-2c5d7e9f0a1b', 'trunk-merge/pr-42-43/3f2b6c1e-8d4a-4f7e-9b1a-2c5d7e9f0a1b'];
const SHOWN_BRANCH = 'trunk-merge/pr-<n>/<uuid>';
const WORKFLOWS_DIR = '.github/workflows';
const FIX_PUSH = `add 'trunk-merge/**' to on.push.branches (on: push: branches: [main, 'trunk-merge/**']), or drop the branch filter`;

/** Where other CI systems keep their configuration: their jobs may make required statuses mq cannot see. */
const OTHER_CI: readonly [string, string][] = [
  ['.circleci', 'CircleCI'],
  ['.buildkite', 'Buildkite'],
  ['Jenkinsfile', 'Jenkins'],
  ['.gitlab-ci.yml', 'GitLab CI'],
  ['.travis.yml', 'Travis CI'],
  ['azure-pipelines.yml', 'Azure Pipelines'],
  ['.drone.yml', 'Drone'],
];

/** The queue's settings these checks read, or why they cannot be had (what doctor would have needed). */
export type QueueRead = { ok: true; queue: Pick<QueueFacts, 'requiredStatuses' | 'testingTimeoutMinutes'> } | { ok: false; needs: string };

interface Job {
  id: string;
  /** `name:`, when given. */
  name?: string;
  matrix: boolean;
  /** A call of a reusable workflow: its checks are `<this job's name> / <a job of the called workflow>`. */
  calls: boolean;
  /** Its `if:`, when it reads the event or the branch: a push to a test branch may not meet it. */
  condition?: string;
}

interface Workflow {
  file: string;
  /** The events of its `on:`. */
  events: string[];
  runs: PushVerdict;
  jobs: Job[];
}

type PushVerdict = { runs: true; note?: string } | { runs: false; why: string };

/** What the repository's files say about its CI. */
export interface CiFiles {
  workflows: Workflow[];
  /** Files that are not YAML a workflow can be read from, each with why. */
  unreadable: string[];
  /** Other CI systems found, by name and file. */
  others: string[];
  /** `merge.required_statuses` of .trunk/trunk.yaml, where the queue takes them when it sets none. */
  trunkYaml?: string[];
}

/** Reads the workflows of the git checkout around `cwd`; undefined outside one. */
export async function readCi(cwd: string): Promise<CiFiles | undefined> {
  const root = await findGitRoot(cwd);
  if (root === undefined) return undefined;
  // The YAML parser comes with cosmiconfig, loaded only when there is a file to read.
  const parse = async (path: string): Promise<Record<string, unknown>> => {
    const { loadYaml } = await import('../../config/config-loader.js');
    const doc = await loadYaml(path, readFileSync(join(root, path), 'utf8'));
    return isRecord(doc) ? doc : {};
  };
  const dir = join(root, WORKFLOWS_DIR);
  const files = existsSync(dir) ? readdirSync(dir).filter((file) => /\.ya?ml$/.test(file)) : [];
  const ci: CiFiles = { workflows: [], unreadable: [], others: OTHER_CI.filter(([path]) => existsSync(join(root, path))).map(([p, n]) => `${n} (${p})`) };
  for (const file of files.sort()) {
    try {
      ci.workflows.push(workflowOf(file, await parse(`${WORKFLOWS_DIR}/${file}`)));
    } catch (error) {
      ci.unreadable.push(error instanceof MqError ? error.message : `${WORKFLOWS_DIR}/${file}: ${systemErrorWords(error)}`);
    }
  }
  if (existsSync(join(root, '.trunk/trunk.yaml'))) {
    const merge = (await parse('.trunk/trunk.yaml').catch(() => ({}) as Record<string, unknown>)).merge;
    const statuses = isRecord(merge) ? strings(merge.required_statuses) : [];
    if (statuses.length > 0) ci.trunkYaml = statuses;
  }
  return ci;
}

export function workflowOf(file: string, doc: Record<string, unknown>): Workflow {
  // YAML 1.1 reads the key `on` as true; the parser mq uses reads YAML 1.2, but a file may be read either way.
  const on = doc.on ?? doc.true;
  const jobs = isRecord(doc.jobs) ? doc.jobs : {};
  return {
    file,
    events: eventsOf(on),
    runs: pushVerdict(on),
    jobs: Object.entries(jobs).map(([id, job]) => {
      const body = isRecord(job) ? job : {};
      return {
        id,
        ...(typeof body.name === 'string' && { name: body.name }),
        matrix: isRecord(body.strategy) && body.strategy.matrix !== undefined,
        calls: typeof body.uses === 'string',
        ...(typeof body.if === 'string' && /github\.(event_name|ref|head_ref|base_ref)|pull_request/.test(body.if) && { condition: body.if }),
      };
    }),
  };
}

/** Whether a push to the queue's test branches starts the workflow (GitHub's rules for on.push's filters). */
function eventsOf(on: unknown): string[] {
  return typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : isRecord(on) ? Object.keys(on) : [];
}

export function pushVerdict(on: unknown): PushVerdict {
  const events = eventsOf(on);
  if (!events.includes('push')) return { runs: false, why: events.length === 0 ? 'it has no on: triggers' : `it runs on ${events.join(', ')}, not on push` };
  const push = isRecord(on) ? on.push : undefined;
  if (!isRecord(push)) return { runs: true };
  const note = push.paths !== undefined || push['paths-ignore'] !== undefined ? 'a paths filter' : undefined;
  const runs = (verdict: PushVerdict): PushVerdict => (verdict.runs && note ? { runs: true, note } : verdict);
  if (push.branches !== undefined) {
    const patterns = strings(push.branches);
    const missed = TEST_BRANCHES.filter((branch) => !filterMatches(patterns, branch));
    if (missed.length === 0) return runs({ runs: true });
    const which = missed.length === TEST_BRANCHES.length ? SHOWN_BRANCH : missed[0]!;
    return { runs: false, why: `on.push.branches [${patterns.join(', ')}] leaves out ${which}` };
  }
  if (push['branches-ignore'] !== undefined) {
    const patterns = strings(push['branches-ignore']);
    const hit = TEST_BRANCHES.find((branch) => filterMatches(patterns, branch));
    return hit ? { runs: false, why: `on.push.branches-ignore [${patterns.join(', ')}] covers ${hit}` } : runs({ runs: true });
  }
  if (push.tags !== undefined || push['tags-ignore'] !== undefined) return { runs: false, why: 'on.push filters tags only, so no push to a branch starts it' };
  return runs({ runs: true });
}

/** GitHub's filter patterns, in order: a later `!pattern` excludes what an earlier one took, a later pattern takes it back. */
export function filterMatches(patterns: readonly string[], branch: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (globOf(negated ? pattern.slice(1) : pattern)?.test(branch)) matched = !negated;
  }
  return matched;
}

/** `*` any characters but `/`, `**` any, `?` and `+` zero-or-one and one-or-more of the character before, `[…]` a set. */
function globOf(pattern: string): RegExp | undefined {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const close = c === '[' ? pattern.indexOf(']', i + 1) : -1;
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?' || c === '+') source += c;
    else if (close > i) {
      source += pattern.slice(i, close + 1);
      i = close;
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return undefined;
  }
}

interface Maker {
  workflow: Workflow;
  job: Job;
  /** The job's check name is an expression, or comes from a called workflow: it may be this status or not. */
  unsure: boolean;
}

/**
 * The jobs that may make a check of this name: a job's check is its name (or id), `id (…)` for each leg of a
 * matrix without a name. A workflow only ever called by others makes none of its own: its jobs' checks carry the
 * caller's job name.
 */
function makersOf(status: string, workflows: readonly Workflow[]): Maker[] {
  return workflows
    .filter((workflow) => workflow.events.join() !== 'workflow_call')
    .flatMap((workflow) =>
      workflow.jobs.flatMap((job): Maker[] => {
        const name = job.name ?? job.id;
        if (job.calls && status.startsWith(`${name} / `)) return [{ workflow, job, unsure: true }];
        if (name.includes('${{')) {
          const pattern = name.split(/\$\{\{.*?\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
          return new RegExp(`^${pattern.join('.*')}$`).test(status) ? [{ workflow, job, unsure: true }] : [];
        }
        const sure = job.matrix && job.name === undefined ? status.startsWith(`${name} (`) && status.endsWith(')') : status === name;
        return sure ? [{ workflow, job, unsure: false }] : [];
      }),
    );
}

export const pass = (name: string, detail: string): DoctorCheck => ({ name, ok: true, detail });
export function fail(name: string, detail: string, fix: string, exitCode: ExitCode = EXIT.negative): DoctorCheck {
  return { name, ok: false, detail, fix, exitCode };
}
const cannot = (name: CiCheckName, detail: string): DoctorCheck => ({ name, ok: false, skipped: true, detail });
const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** The commands the fixes name, built by the command: aimed at the queue checked, with the flags that named it. */
export interface QueueFixes {
  /** `mq queue update --required-status NAME`, NAME for the user to fill in. */
  requiredStatus: string;
  /** `mq queue update --testing-timeout-minutes 60`. */
  testingTimeout: string;
}

/** The four checks from what the files say and what the queue says (or why it could not be read). */
export function ciChecks(ci: CiFiles | undefined, queue: QueueRead, outsideCheckout: 'fail' | 'skip', fixes: QueueFixes): DoctorCheck[] {
  if (ci === undefined) {
    const none = 'no git checkout here: run it in a clone of the repository';
    return [
      outsideCheckout === 'fail'
        ? fail('workflows', none, 'cd into the clone of the repository whose queue this is', EXIT.config)
        : cannot('workflows', `skipped: ${none}`),
      ...CI_CHECK_NAMES.slice(1).map((name) => cannot(name, 'skipped: needs the workflows of a git checkout')),
    ];
  }
  const others = ci.others.length > 0 ? `; also ${ci.others.join(', ')}, which mq cannot read` : '';
  const timeout = timeoutCheck(queue, fixes.testingTimeout);
  if (ci.workflows.length === 0 && ci.unreadable.length === 0) {
    const skipped = CI_CHECK_NAMES.slice(1, 3).map((name) => cannot(name, 'skipped: needs a GitHub Actions workflow'));
    if (others)
      return [
        cannot('workflows', `no GitHub Actions workflows in ${WORKFLOWS_DIR}${others}: check by hand that it runs on ${SHOWN_BRANCH}`),
        ...skipped,
        timeout,
      ];
    const fix = `add a workflow that runs on push to 'trunk-merge/**' (docs/commands.md, mq doctor), and make its jobs the queue's required statuses`;
    return [
      fail('workflows', `no workflows in ${WORKFLOWS_DIR}: nothing tests the queue's branches, and every PR waits for the testing timeout`, fix),
      ...skipped,
      timeout,
    ];
  }
  const listed = `${plural(ci.workflows.length, 'workflow')} in ${WORKFLOWS_DIR}: ${ci.workflows.map((w) => w.file).join(', ')}${others}`;
  const workflows =
    ci.unreadable.length > 0
      ? fail('workflows', `${listed}; not read: ${ci.unreadable.join('; ')}`, 'correct the YAML where the message says')
      : pass('workflows', listed);

  const required = requiredOf(ci, queue);
  if (required.statuses === undefined) {
    return [workflows, branchesCheck(ci.workflows, undefined), cannot('requiredStatuses', `not checked: ${required.from}`), timeout];
  }
  const found = required.statuses.map((status) => ({ status, makers: makersOf(status, ci.workflows) }));
  return [workflows, branchesCheck(ci.workflows, found), statusesCheck(found, required.from, ci.others.length > 0, fixes.requiredStatus), timeout];
}

/** The queue's own required statuses, else .trunk/trunk.yaml's; GitHub's branch protection cannot be read offline. */
function requiredOf(ci: CiFiles, queue: QueueRead): { statuses?: string[]; from: string } {
  const own = queue.ok ? (queue.queue.requiredStatuses ?? []) : [];
  if (own.length > 0) return { statuses: own, from: "the queue's requiredStatuses" };
  const unread = queue.ok ? '' : ` (the queue's own would override them: not read, it needs ${queue.needs})`;
  if (ci.trunkYaml) return { statuses: ci.trunkYaml, from: `.trunk/trunk.yaml's merge.required_statuses${unread}` };
  return {
    from: queue.ok
      ? 'the queue sets no requiredStatuses and .trunk/trunk.yaml names none, so GitHub branch protection decides them, which mq cannot read'
      : `the queue's requiredStatuses need ${queue.needs}, and .trunk/trunk.yaml names none`,
  };
}

function branchesCheck(workflows: readonly Workflow[], found: { makers: Maker[] }[] | undefined): DoctorCheck {
  // Known statuses: the workflows that make them must run. Unknown: at least one of those that run for code (on
  // push or pull_request, not releases or schedules) must.
  const makers = found && new Set(found.flatMap((f) => f.makers.map((m) => m.workflow)));
  const forCode = workflows.filter((w) => w.events.includes('push') || w.events.includes('pull_request'));
  const relevant = makers && makers.size > 0 ? [...makers] : forCode.length > 0 ? forCode : workflows;
  const running = relevant.filter((w) => w.runs.runs);
  const whyNot = relevant.flatMap((w) => (w.runs.runs ? [] : [`${w.file}: ${w.runs.why}`])).join('; ');
  const conditions = [
    ...new Set(
      found?.flatMap((f) => f.makers.filter((m) => m.job.condition).map((m) => `${m.workflow.file} job ${m.job.id} runs only if: ${m.job.condition}`)),
    ),
  ];
  const notes = [
    ...running.flatMap((w) => (w.runs.runs && w.runs.note ? [`${w.file} has ${w.runs.note}: a PR that changes none of its paths gets no run`] : [])),
    ...conditions,
  ];
  const which = makers && makers.size > 0 ? 'the workflows that make the required statuses run' : 'runs';
  const ran = [`${which} on pushes to ${SHOWN_BRANCH}: ${running.map((w) => w.file).join(', ')}`, ...notes];
  if (makers && makers.size > 0) {
    if (!whyNot) return pass('testBranches', ran.join('; '));
    return fail('testBranches', `a workflow that makes a required status does not run on the queue's test branches: ${whyNot}`, FIX_PUSH);
  }
  if (running.length === 0) return fail('testBranches', `no workflow runs on pushes to the queue's test branches (${SHOWN_BRANCH}): ${whyNot}`, FIX_PUSH);
  const unknown = found ? 'no job here makes a required status' : 'which make the required statuses is not known';
  return pass('testBranches', [...ran, ...(whyNot ? [`not ${whyNot}`] : []), unknown].join('; '));
}

function statusesCheck(found: { status: string; makers: Maker[] }[], from: string, otherCi: boolean, requiredStatus: string): DoctorCheck {
  const where = (m: Maker) => `${m.workflow.file} job ${m.job.id}`;
  const missing = found.filter((f) => f.makers.length === 0).map((f) => f.status);
  const unsure = found.filter((f) => f.makers.length > 0 && f.makers.every((m) => m.unsure));
  const sure = found.filter((f) => f.makers.some((m) => !m.unsure));
  const parts = [
    sure.length > 0 && `made here: ${sure.map((f) => `${f.status} (${where(f.makers.find((m) => !m.unsure)!)})`).join(', ')}`,
    unsure.length > 0 &&
      `cannot be sure: ${unsure.map((f) => `${f.status} may be ${where(f.makers[0]!)}, whose check name is an expression or a called workflow's`).join(', ')}`,
  ].filter(Boolean);
  const shown = `${plural(found.length, 'required status', 'required statuses')} from ${from}`;
  if (missing.length === 0) return pass('requiredStatuses', `${shown}; ${parts.join('; ')}`);
  const absent = `no job in ${WORKFLOWS_DIR} makes ${missing.map((s) => JSON.stringify(s)).join(', ')}`;
  // A status made by another CI system or an app cannot be told from a misspelt one.
  if (otherCi)
    return cannot(
      'requiredStatuses',
      `${shown}; ${absent}: another CI system may make it, which mq cannot see${parts.length > 0 ? `; ${parts.join('; ')}` : ''}`,
    );
  return fail(
    'requiredStatuses',
    `${shown}; ${absent} (a status an app or another CI makes cannot be seen here)`,
    `make each required status a job's check as GitHub names it (its name:, else its id; \`id (…)\` for each leg of a matrix): correct the job, or the statuses (${requiredStatus}, or .trunk/trunk.yaml)`,
  );
}

function timeoutCheck(queue: QueueRead, testingTimeout: string): DoctorCheck {
  if (!queue.ok) return cannot('testingTimeout', `not checked: the queue's settings need ${queue.needs}`);
  const minutes = queue.queue.testingTimeoutMinutes;
  if (minutes > 0) return pass('testingTimeout', `${minutes} minutes: a test run with a status still missing then fails, and the queue moves on`);
  return fail(
    'testingTimeout',
    'none (0): a test run whose required status never comes (a workflow that does not run) holds the queue for ever',
    `${testingTimeout} (longer than your slowest required job)`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}
