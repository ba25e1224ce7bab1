// `mq help <topic>`: what no single command's --help can say. The tables come from the code they describe (the
// EXIT constants, the config file schema, the search places), so the text follows the code. The config layer is
// loaded only to write the config topic: `mq --help` names the topics without it.
import type { Command, Help } from 'commander';
import { HELP_TOPIC_NAMES, type HelpTopicName } from '../text/help-topics.js';
import { EXIT_CODES } from './exit-codes.js';
import { layout, type Block } from './layout.js';

export interface HelpTopic {
  name: HelpTopicName;
  summary: string;
  /** The topic laid out by `help` (commander's, at the output's width); `program`: mq's, for what it declares. */
  text(help: Help, program: Command): string | Promise<string>;
}

/** A topic's text, which its name (src/text/help-topics.ts) leads to. */
type TopicText = Omit<HelpTopic, 'name'>;

/** The heading of the global flags in `mq --help` (an options group of the program), and how the topic finds them. */
export const GLOBAL_OPTIONS_HEADING = 'Global Options:';

/** The line a command's help has where the global flags would be: they are listed once, in their topic. */
export const GLOBAL_FLAGS_POINTER = 'Global flags (--repo, --json, -q…): mq help global-flags';

const exitCodes: TopicText = {
  summary: 'what each exit code of mq means',
  text: (help) =>
    layout(
      [
        { heading: 'Exit codes (scripts may rely on them):', rows: EXIT_CODES.map((row) => [String(row.code), row.long]) },
        'Under --json a failure is also described on stderr, as one line: {"error": {"code": "not_found", "status": 404, "message": "..."}}',
      ],
      help,
    ),
};

const config: TopicText = {
  summary: 'where settings come from, config files and their keys',
  text: async (help) => {
    const [{ PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES }, rows] = await Promise.all([import('../config/config-names.js'), import('../config/setting-rows.js')]);
    return layout(configText(PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES, rows), help);
  },
};

function configText(
  PROJECT_SEARCH_PLACES: readonly string[],
  USER_SEARCH_PLACES: readonly string[],
  { configKeysHelp, envName, envNames }: typeof import('../config/setting-rows.js'),
): Block[] {
  const places = PROJECT_SEARCH_PLACES.map((place) => (place === 'package.json' ? 'package.json (its "mq" key)' : place)).join(', ');
  return [
    {
      heading: 'Where settings come from, first found wins:',
      rows: [
        ['1.', 'flags'],
        ['2.', 'environment (mq help environment)'],
        ['3.', 'the project config file'],
        ['4.', 'the user config file'],
        ['5.', 'inference (the repository from the git remote origin)'],
        ['6.', 'defaults'],
      ],
    },
    `The project config file is the nearest of ${places} from the working directory up to the git root (outside a
    checkout: up to your home directory; outside both, the working directory's own only), or the file --config or ${envName('config')} names (unless that is the user
    file). A pull request can change it, so it decides neither how the token is obtained nor where it is sent:
    token, tokenCommand, tokenFile and trustedApiUrls in it are an error (exit 3), and its apiUrl gets the token
    only when it is a loopback address (the sandbox) or the user file lists it under trustedApiUrls; otherwise mq
    refuses before reading the token (exit 3).`,
    `The user config file is $XDG_CONFIG_HOME/mq/{${USER_SEARCH_PLACES.join(',')}} (default ~/.config/mq/).`,
    `Files are JSON or YAML; executable config files (.js, .ts) are never loaded, since mq runs in CI on
    pull-request branches. An unknown key or a wrong value is an error naming the file and the key.`,
    { heading: 'Keys:', rows: configKeysHelp() },
    `The token: ${envNames('token')} in the environment comes first; otherwise one of tokenCommand, tokenFile or token
    in the user file. It is never a flag. It is sent only over https, or plain http to a loopback address, unless
    --insecure or ${envName('insecure')}=1.`,
    {
      rows: [
        ['mq config init', 'write .mqrc.yaml at the git root (asks on a terminal; --user for the user file)'],
        ['mq config path', 'the config files in effect, and where new ones would go'],
        ['mq config show', 'every resolved setting and where it came from (never the token)'],
      ],
    },
    ".mqrc.example, in mq's package, shows every key with a comment.",
  ];
}

/** The variables mq reads besides the settings' own; empty ones count as unset. */
const OTHER_VARIABLES: ReadonlyArray<readonly [string, string]> = [
  ['BROWSER', "what mq status --web opens the PR with (else open, xdg-open or the system's)"],
  ['FORCE_COLOR', 'colour even in a pipe; 0 or false: none'],
  ['HTTPS_PROXY, HTTP_PROXY', 'proxy for requests'],
  ['NO_PROXY', 'hosts reached without the proxy'],
  ['XDG_CACHE_HOME', 'where mq keeps v2 ids, request budgets and webhook secrets ($XDG_CACHE_HOME/mq/; default ~/.cache)'],
  ['XDG_CONFIG_HOME', 'where the user config file lives ($XDG_CONFIG_HOME/mq/; default ~/.config)'],
];

const environment: TopicText = {
  summary: 'the environment variables mq reads',
  text: async (help) =>
    layout(
      [
        `Environment variables (a flag wins over a variable, a variable over the config files; an empty variable
        counts as unset):`,
        { rows: [...(await import('../config/setting-rows.js')).environmentHelp(), ...OTHER_VARIABLES] },
      ],
      help,
    ),
};

const globalFlags: TopicText = {
  summary: 'the flags every command takes',
  text: (help, program) =>
    layout(
      [
        `Flags every command takes, before or after its name (mq --json status 42, mq status 42 --json). A flag wins
        over the environment and the config files (mq help config).`,
        {
          heading: GLOBAL_OPTIONS_HEADING,
          rows: help
            .visibleOptions(program)
            .filter((option) => option.helpGroupHeading === GLOBAL_OPTIONS_HEADING)
            .map((option) => [help.optionTerm(option), help.optionDescription(option)]),
        },
      ],
      help,
    ),
};

const BY_NAME: Record<HelpTopicName, TopicText> = { 'global-flags': globalFlags, 'exit-codes': exitCodes, config, environment };

/** In the order `mq help help` names them (src/text/help-topics.ts). */
export const HELP_TOPICS: readonly HelpTopic[] = HELP_TOPIC_NAMES.map((name) => ({ name, ...BY_NAME[name] }));

/** The line at the foot of `mq --help` that names the topics. */
export function helpTopicsLine(): string {
  return `Help topics: ${HELP_TOPICS.map((t) => `mq help ${t.name}`).join(', ')}.`;
}
