// `mq help <topic>`: what no single command's --help can say. The tables come from the code they describe (the
// EXIT constants, the config file schema, the search places), so the text follows the code. The config layer is
// loaded only to write the config topic: `mq --help` names the topics without it.
import { EXIT_CODES } from './exit-codes.js';

export interface HelpTopic {
  name: string;
  summary: string;
  text(): string | Promise<string>;
}

const LINE_WIDTH = 110;

/** Rows of two columns, the first padded to the widest, the second wrapped under itself. */
function columns(rows: ReadonlyArray<readonly [string, string]>, indent = '  '): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  const hanging = ' '.repeat(indent.length + width + 2);
  return rows
    .map(([left, right]) =>
      wrap(right, LINE_WIDTH - hanging.length)
        .map((line, i) => (i === 0 ? `${indent}${left.padEnd(width)}  ${line}` : `${hanging}${line}`))
        .join('\n'),
    )
    .join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

const exitCodes: HelpTopic = {
  name: 'exit-codes',
  summary: 'what each exit code of mq means',
  text: () => `Exit codes (scripts may rely on them):

${columns(EXIT_CODES.map((row) => [String(row.code), row.long]))}

Under --json a failure is also described on stderr as
  {"error": {"code": "not_found", "status": 404, "message": "..."}}
`,
};

const config: HelpTopic = {
  name: 'config',
  summary: 'where settings come from, config files and their keys',
  text: async () => configText(await import('../config/index.js')),
};

function configText({ PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES, configKeysHelp, envName, envNames }: typeof import('../config/index.js')): string {
  return `Where settings come from, first found wins:
  1. flags   2. environment (mq help environment)   3. the project config file   4. the user config file
  5. inference (the repository from the git remote origin)   6. defaults

The project config file is the nearest of
  ${PROJECT_SEARCH_PLACES.map((place) => (place === 'package.json' ? 'package.json (its "mq" key)' : place)).join(', ')}
from the working directory up to the git root (outside a checkout: up to your home directory), or the file
--config or ${envName('config')} names (unless that is the user file). A pull request can change it, so it decides
neither how the token is obtained nor where it is sent: token, tokenCommand, tokenFile and trustedApiUrls in
it are an error (exit 3), and its apiUrl gets the token only when it is a loopback address (the sandbox) or
the user file lists it under trustedApiUrls; otherwise mq refuses before reading the token (exit 3).

The user config file is $XDG_CONFIG_HOME/mq/{${USER_SEARCH_PLACES.join(',')}} (default ~/.config/mq/).

Files are JSON or YAML; executable config files (.js, .ts) are never loaded, since mq runs in CI on
pull-request branches. An unknown key or a wrong value is an error naming the file and the key.

Keys:
${columns(configKeysHelp())}

The token: ${envNames('token')} in the environment comes first; otherwise one of tokenCommand,
tokenFile or token in the user file. It is never a flag. It is sent only over https, or plain http to a
loopback address, unless --insecure or ${envName('insecure')}=1.

  mq config init          write .mqrc.yaml at the git root (asks on a terminal; --user for the user file)
  mq config path          the config files in effect, and where new ones would go
  mq config show          every resolved setting and where it came from (never the token)

.mqrc.example, in mq's package, shows every key with a comment.
`;
}

/** The variables mq reads besides the settings' own; empty ones count as unset. */
const OTHER_VARIABLES: ReadonlyArray<readonly [string, string]> = [
  ['FORCE_COLOR', 'colour even in a pipe; 0 or false: none'],
  ['HTTPS_PROXY, HTTP_PROXY', 'proxy for requests'],
  ['NO_PROXY', 'hosts reached without the proxy'],
  ['XDG_CONFIG_HOME', 'where the user config file lives ($XDG_CONFIG_HOME/mq/; default ~/.config)'],
];

const environment: HelpTopic = {
  name: 'environment',
  summary: 'the environment variables mq reads',
  text: async () => `Environment variables (a flag wins over a variable, a variable over the config files; an empty
variable counts as unset):

${columns([...(await import('../config/setting-rows.js')).environmentHelp(), ...OTHER_VARIABLES])}
`,
};

export const HELP_TOPICS: readonly HelpTopic[] = [exitCodes, config, environment];

/** The line at the foot of `mq --help` that names the topics. */
export function helpTopicsLine(): string {
  return `Help topics: ${HELP_TOPICS.map((t) => `mq help ${t.name}`).join(', ')}.`;
}
