// The topics of `mq help`, by name: the help command's own help lists them, and src/help/topics.ts writes each.
export const HELP_TOPIC_NAMES = ['global-flags', 'exit-codes', 'config', 'environment'] as const;

export type HelpTopicName = (typeof HELP_TOPIC_NAMES)[number];
