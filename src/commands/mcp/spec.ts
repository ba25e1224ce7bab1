import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const MCP = {
  name: 'mcp',
  description: 'serve the queue to coding agents over the Model Context Protocol (stdio)',
  flags: [
    { flags: '--allow-writes', description: 'also offer the tools that change the queue: submit, cancel, restart, edit, pause, drain, resume, queue update' },
    { flags: '--interval <duration>', description: 'pause between two reads of the queues a client subscribed to, at least 1s (default 10s)' },
  ],
  examples: ['mq mcp', 'mq mcp --allow-writes', 'npx @modelcontextprotocol/inspector-cli --cli mq mcp --method tools/list'],
  notes: `
Speaks JSON-RPC on stdin and stdout; anything else (--debug, -v) goes to stderr. Settings and the credential
are resolved as for every command, once, as the server starts (settings that do not resolve are each call's
error, not the server's end): a tool never takes a token, and none is ever in a result. Each tool mirrors a command: its --json document as structured content, its text as the content; a
failure is a tool error with mq's one-line message and what its exit code means. The queue is a resource,
mq://queue/{host}/{owner}/{name}/{branch}, read once per --interval for all its subscribers.
`,
  load: async (): Promise<AnyParse> => (await import('./mcp.js')).parseMcp,
} as const satisfies CommandSpec;
