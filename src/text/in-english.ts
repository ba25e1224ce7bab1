// zod words a message in the language of a global every copy of zod in a process shares (`z.config`, kept on
// globalThis): a project that embeds the sandbox and sets its own language, or its own messages, would change the
// sandbox's refusals, which that project's tests read, and mq's. A parse given these words its messages in English
// whatever the global says: a parse's own error map outranks the global's (a schema's own message outranks both).
import type * as z from 'zod';
import en from 'zod/v4/locales/en.js';

/** The params of every parse whose messages mq or the sandbox shows: `schema.safeParse(value, IN_ENGLISH)`. */
export const IN_ENGLISH: z.core.ParseContext<z.core.$ZodIssue> = { error: en().localeError };
