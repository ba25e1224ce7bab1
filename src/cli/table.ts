// Every command of mq, in the order `mq --help` lists them: each command's spec (its words, help and loader) is
// in its own folder of src/commands/, as data that loads none of its code.
import type { CommandSpec } from '../command-kit/invocation.js';
import { COMPLETION } from '../commands/completion/spec.js';
import { CONFIG } from '../commands/config/spec.js';
import { DOCTOR } from '../commands/doctor/spec.js';
import { EDIT, HISTORY, RUNS } from '../commands/entries/spec.js';
import { FLAKY, TEST_DETAILS } from '../commands/flaky/spec.js';
import { HELP } from '../commands/help/spec.js';
import { LIST } from '../commands/list/spec.js';
import { MCP } from '../commands/mcp/spec.js';
import { METRICS } from '../commands/metrics/spec.js';
import { CANCEL, RESTART, SUBMIT } from '../commands/pull-requests/spec.js';
import { QUEUE } from '../commands/queue/spec.js';
import { QUEUES } from '../commands/queues/spec.js';
import { SANDBOX } from '../commands/sandbox/spec.js';
import { SIMULATE } from '../commands/simulate/spec.js';
import { STATS } from '../commands/stats/spec.js';
import { STATUS } from '../commands/status/spec.js';
import { TARGETS } from '../commands/targets/spec.js';
import { TESTING } from '../commands/testing/spec.js';
import { WAIT } from '../commands/wait/spec.js';
import { WEBHOOKS } from '../commands/webhooks/spec.js';

export const COMMANDS: readonly CommandSpec[] = [
  SUBMIT,
  WAIT,
  CANCEL,
  RESTART,
  EDIT,
  STATUS,
  HISTORY,
  RUNS,
  LIST,
  STATS,
  SIMULATE,
  TESTING,
  QUEUE,
  QUEUES,
  TARGETS,
  METRICS,
  TEST_DETAILS,
  FLAKY,
  DOCTOR,
  CONFIG,
  COMPLETION,
  HELP,
  SANDBOX,
  WEBHOOKS,
  MCP,
];
