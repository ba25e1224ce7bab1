// mq mcp: the MCP server over stdio (src/mcp/), with the settings and the context every command gets.
import { parseInterval } from '../../command-kit/wait-input.js';
import { work, type Invocation, type ServeWork, type Words } from '../../command-kit/invocation.js';
import type { McpOptions } from '../../mcp/server.js';
import type { MCP } from './spec.js';

/** How often the queues a client subscribed to are read without --interval. */
const DEFAULT_MCP_INTERVAL_MS = 10_000;

/** `mq mcp [--allow-writes] [--interval d]` */
export function parseMcp(words: Words<typeof MCP>): Invocation {
  const input: McpOptions = { allowWrites: words.flags.allowWrites === true, intervalMs: parseInterval(words.flags.interval, DEFAULT_MCP_INTERVAL_MS) };
  return work.serve(input, mcp, { unresolvedServes: true });
}

export const mcp: ServeWork<McpOptions>['handler'] = async (input, ctx, _announce, _deliver, streams) =>
  (await import('../../mcp/server.js')).serveMcp(input, ctx, streams);
