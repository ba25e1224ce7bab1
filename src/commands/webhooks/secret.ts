// A webhook endpoint's signing secret: given (--secret), or for `listen`, one made once and kept in mq's cache folder,
// so that a receiver configured with it goes on verifying across restarts (as `stripe listen` keeps its own).
import { readFile, writeFile } from 'node:fs/promises';
import { makeFolder } from '../../folders.js';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { keyOf, newSecret, SECRET_FORM } from '../../model/webhook-signature.js';

export function parseSecret(secret: string | undefined): Buffer {
  if (secret === undefined) throw new UsageError("--secret is required: the endpoint's signing secret, whsec_…");
  const key = keyOf(secret);
  // The value is not echoed: it may be a real secret, mistyped.
  if (!key) throw new UsageError(`--secret is not a signing secret (${SECRET_FORM}): give the secret as the endpoint's settings show it`);
  return key;
}

/** The kept secret, made on first use; without a cache folder (no home), one for this run. */
export async function keptSecret(folder: string | undefined): Promise<string> {
  if (folder === undefined) return newSecret();
  const file = join(folder, 'webhooks-secret');
  const kept = await readFile(file, 'utf8').catch(() => '');
  if (keyOf(kept.trim())) return kept.trim();
  const secret = newSecret();
  makeFolder(folder, 0o700);
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
