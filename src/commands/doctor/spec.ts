import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { envName } from '../../config/setting-rows.js';

export const DOCTOR = {
  name: 'doctor',
  description: 'check that mq can work here: Node.js, settings, token, API, service status, clock, repository, queue, proxy',
  examples: ['mq doctor', 'mq doctor --json', `${envName('apiUrl')}=http://127.0.0.1:4000/v1 mq doctor`],
  notes:
    '\nOne line per check, a failure with its fix; a check that needs a failed one is skipped. Exit 0 when all\n' +
    "pass, else the first failure's code (3 config or token, 4 no queue, 6 unreachable or the service impacted,\n" +
    '1 a clock off by more than a minute). Each request is tried once, within 5s or --timeout if shorter.\n' +
    'The token is never shown: only where it comes from.\n',
  load: async (): Promise<AnyParse> => (await import('./doctor.js')).parseDoctor,
} as const satisfies CommandSpec;
