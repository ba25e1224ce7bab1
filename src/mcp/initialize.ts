// What `mq mcp` answers to `initialize`, written once: the server gives it to the SDK, and the build writes it to
// dist/mcp-initialize.json for bin/mq.js, which answers the client's first message from it before the program
// loads, as it answers --version from the manifest (the program then starts told not to answer it again).
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';

export const SERVER_INFO = { name: 'mq', version: VERSION };

export const CAPABILITIES = { tools: {}, resources: { subscribe: true }, prompts: {} };

export const INSTRUCTIONS =
  "mq's tools read and (when the server allows writes) change a merge queue, on the repository and branch of mq's settings. " +
  "Start with status (a PR's state, why it is not moving, when it should merge); wait follows PRs until they merge.";

/** dist/mcp-initialize.json: the answer but for its protocol version, which is the client's where the SDK speaks it, else the latest. */
export function initializeAnswer() {
  return {
    latest: LATEST_PROTOCOL_VERSION,
    supported: SUPPORTED_PROTOCOL_VERSIONS,
    result: { capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS },
  };
}
