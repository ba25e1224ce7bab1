// Opening a link in the browser, as gh does: the command BROWSER names (the URL its last argument), else the
// platform's opener. mq waits for that command to end, so a failure to open is said, not lost.
import { ConfigError } from '../errors.js';

export async function openInBrowser(url: string, env: Record<string, string | undefined>, platform: string): Promise<void> {
  const [command = '', ...args] = env.BROWSER?.trim().split(/\s+/) ?? OPENERS[platform] ?? ['xdg-open'];
  const { spawn } = await import('node:child_process');
  const failure = await new Promise<string | undefined>((resolve) => {
    const child = spawn(command, [...args, url], { stdio: 'ignore', windowsHide: true });
    child.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'it was not found' : error.message));
    child.on('exit', (code, signal) => resolve(code === 0 ? undefined : `it ended with ${signal ?? `exit code ${code}`}`));
  });
  if (failure) throw new ConfigError(`could not open the browser with ${command} (${failure}): set BROWSER, or open ${url}`);
}

const OPENERS: Record<string, string[]> = { darwin: ['open'], win32: ['rundll32', 'url.dll,FileProtocolHandler'] };
