// mq sandbox: runs the local emulator until interrupted. Its base URL is the first line of stdout, so a
// script can start it in the background and read where it listens.
import { startSandbox, type SandboxOptions } from '../sandbox/server.js';
import type { Context } from './context.js';

export async function sandbox(
  input: SandboxOptions,
  ctx: Context,
  announce: (url: string) => void,
): Promise<void> {
  const running = await startSandbox(input);
  announce(running.url);
  ctx.note(
    [
      `sandbox listening on ${running.url} (${input.clock ?? 'real'} clock${input.stateFile ? `, state in ${input.stateFile}` : ', state in memory'})`,
      `try:  export MQ_API_URL=${running.url} MQ_TOKEN=${input.token === undefined ? 'sandbox' : '<the --token value>'} MQ_REPO=acme/widgets`,
      '      mq queue create && mq submit 1 && mq queue get',
      'stop with Ctrl-C',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
}
