// mq config: mq's own settings, shown, located and written.
import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { envName } from '../../config/setting-rows.js';

const CONFIG_SHOW = {
  name: 'show',
  description: 'every resolved setting and where it came from (never the token)',
  examples: ['mq config show', 'mq config show --profile ci --json'],
  load: async (): Promise<AnyParse> => (await import('./show.js')).parseConfigShow,
} as const satisfies CommandSpec;

const CONFIG_PATH = {
  name: 'path',
  description: 'the config files in effect, and where new ones would be written',
  examples: ['mq config path', 'mq config path --json | jq -r .project.path'],
  load: async (): Promise<AnyParse> => (await import('./path.js')).parseConfigPath,
} as const satisfies CommandSpec;

export const CONFIG_INIT = {
  name: 'init',
  description: 'write a config file: .mqrc.yaml at the git root, or your user file with --user',
  flags: [
    { flags: '--user', description: 'write the user config file instead of the project one' },
    { flags: '--token-command <command>', description: 'a command that prints the token (written as tokenCommand)' },
    { flags: '--token-file <path>', description: 'a file that holds the token (written as tokenFile)' },
    { flags: '--force', description: 'replace the config file already there' },
  ],
  examples: [
    'mq config init',
    'mq config init --repo acme/widgets --branch main',
    'mq config init --user --api-url https://mq.example.com --token-command "op read op://dev/mq/token"',
  ],
  notes: `
It writes .mqrc.yaml at the git root (outside a checkout: in the working directory), or with --user
$XDG_CONFIG_HOME/mq/config.yaml (default ~/.config/mq/). On a terminal it asks for what no flag gives
(repository, target branch, API URL, output); otherwise it writes the flags and what it infers (the
repository from the git remote origin) without asking. Flags it writes: --repo, --branch, --api-url, --org,
--output (not --json), and with --user --token-command, --token-file. A key at mq's default is left out, but
a project file always names its target branch, and its repository (a warning says when there is none to
infer). It never asks for the token nor writes it: set
${envName('token')}, or name a tokenCommand or tokenFile in the user file (a project file may not). A config file
already in that directory is replaced only with --force (exit 2 otherwise); the file is checked against the
same schema mq reads config files with.
`,
  load: async (): Promise<AnyParse> => (await import('./init.js')).parseConfigInit,
} as const satisfies CommandSpec;

export const CONFIG = {
  name: 'config',
  description: "mq's own settings",
  examples: ['mq config init', 'mq config path', 'mq config show --json', 'mq help config'],
  subcommands: [CONFIG_SHOW, CONFIG_PATH, CONFIG_INIT],
} as const satisfies CommandSpec;
