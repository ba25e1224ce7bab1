import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha1Hex, sha256Hex } from '../../src/sandbox/engine/digest.js';

const nodeHash = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex');

describe('the engine’s own digests', () => {
  it('are node:crypto’s SHA-1 and SHA-256, on texts of every length around the block edges, and any Unicode', () => {
    for (let length = 0; length < 200; length++) {
      const text = 'x'.repeat(length);
      expect(sha256Hex(text)).toBe(nodeHash('sha256', text));
      expect(sha1Hex(text)).toBe(nodeHash('sha1', text));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(nodeHash('sha256', text));
        expect(sha1Hex(text)).toBe(nodeHash('sha1', text));
      }),
    );
  });
});
