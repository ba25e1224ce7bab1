// A webhook endpoint's signing secret: given (--secret), or for `listen`, one made once and kept in mq's cache folder,
// so that a receiver configured with it goes on verifying across restarts (as `stripe listen` keeps its own).
import { join } from 'node:path';
import { readSmall, writeWhole } from '../../cache-file.js';
import { makeFolder } from '../../folders.js';
import { systemErrorWords, UsageError } from '../../errors.js';
import { keyOf, newSecret, SECRET_FORM } from '../../model/webhook-signature.js';

export function parseSecret(secret: string | undefined): Buffer {
  if (secret === undefined) throw new UsageError("--secret is required: the endpoint's signing secret, whsec_…");
  const key = keyOf(secret);
  // The value is not echoed: it may be a real secret, mistyped.
  if (!key) throw new UsageError(`--secret is not a signing secret (${SECRET_FORM}): give the secret as the endpoint's settings show it`);
  return key;
}

/** A secret is some 50 characters: a larger file holds none, and is written afresh. */
const SECRET_BYTES_MAX = 4_096;

/**
 * The kept secret, made on first use. Without a cache folder (no home), or where it cannot be kept (a folder mq may
 * not write, a full disk, anything but a regular file at its name), one for this run, `warn` told why.
 */
export function keptSecret(folder: string | undefined, warn: (line: string) => void): string {
  if (folder === undefined) return newSecret();
  const file = join(folder, 'webhooks-secret');
  const secret = newSecret();
  try {
    const kept = readSmall(file, SECRET_BYTES_MAX)?.trim() ?? '';
    if (keyOf(kept)) return kept;
    makeFolder(folder, 0o700);
    // Written whole or not at all: a full disk leaves no empty file behind.
    writeWhole(file, `${secret}\n`, 0o600);
  } catch (error) {
    warn(`the webhooks secret cannot be kept in ${file} (${systemErrorWords(error)}): this one is for this run only (--secret gives the same each time)`);
  }
  return secret;
}
