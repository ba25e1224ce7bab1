import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { envName } from '../../config/setting-rows.js';

export const DOCTOR = {
  name: 'doctor',
  description: 'check that mq can work here: Node.js, settings, token, API, service status, clock, repository, queue, proxy, CI workflows',
  flags: [
    { flags: '--ci', description: "only the checks of the repository's GitHub Actions workflows (offline; the queue's settings too when a token is set)" },
  ],
  examples: ['mq doctor', 'mq doctor --ci', 'mq doctor --json', `${envName('apiUrl')}=http://127.0.0.1:4000/v1 mq doctor`],
  notes:
    '\nOne line per check, a failure with its fix; a check that needs a failed one is skipped. Exit 0 when all\n' +
    "pass, else the first failure's code (3 config or token, 4 no queue, 6 unreachable or the service impacted,\n" +
    "1 a clock off by more than a minute, or CI that does not test the queue's branches). Each request is tried\n" +
    'once, within 5s or --timeout if shorter. The token is never shown: only where it comes from.\n' +
    "--ci reads .github/workflows of the checkout mq runs in: do the workflows that make the queue's required\n" +
    'statuses run on pushes to its test branches (trunk-merge/**), do those statuses name jobs that exist, is a\n' +
    'testing timeout set. Another CI system, a status an app makes and branch protection it says it cannot see.\n',
  load: async (): Promise<AnyParse> => (await import('./doctor.js')).parseDoctor,
} as const satisfies CommandSpec;
