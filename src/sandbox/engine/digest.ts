// SHA-1 and SHA-256 of a text, in plain TypeScript: the engine derives its ids from them and must not reach for
// node:crypto (it stays a pure state machine that runs anywhere). The ids are short and few, so speed is no
// concern; the digests are the standard ones, byte for byte, so ids stay what earlier sandboxes gave out.

const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const encoder = new TextEncoder();
/** The schedules, reused: the engine is single-threaded and a digest never calls another. */
const W256 = new Uint32Array(64);
const W1 = new Uint32Array(80);
/** Room for the padded message of a short text (ids are made of short ones), reused to spare the allocations. */
const SCRATCH = new Uint8Array(256);
const SCRATCH_VIEW = new DataView(SCRATCH.buffer);

/** The message padded to whole 64-byte blocks, with its bit length at the end (big-endian), as both hashes want. */
function blocks(text: string): { view: DataView; length: number } {
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit: a text this short fits the scratch, padding included.
  const short = text.length * 3 + 9 <= SCRATCH.length;
  let padded: Uint8Array;
  let size: number;
  if (short) {
    size = encoder.encodeInto(text, SCRATCH).written;
    padded = SCRATCH;
  } else {
    const bytes = encoder.encode(text);
    size = bytes.length;
    padded = new Uint8Array(Math.ceil((size + 9) / 64) * 64);
    padded.set(bytes);
  }
  const length = Math.ceil((size + 9) / 64) * 64;
  padded.fill(0, size, length);
  padded[size] = 0x80;
  const view = short ? SCRATCH_VIEW : new DataView(padded.buffer);
  const bits = size * 8;
  view.setUint32(length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(length - 4, bits >>> 0);
  return { view, length };
}

const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex(words: Uint32Array): string {
  let text = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    text += BYTE_HEX[word >>> 24]! + BYTE_HEX[(word >>> 16) & 0xff]! + BYTE_HEX[(word >>> 8) & 0xff]! + BYTE_HEX[word & 0xff]!;
  }
  return text;
}

/** Each word of the state plus the block's result, modulo 2^32 (the array wraps). */
function addBlock(h: Uint32Array, ...words: number[]): void {
  for (let i = 0; i < words.length; i++) h[i] = h[i]! + words[i]!;
}

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

export function sha256Hex(text: string): string {
  const { view: message, length } = blocks(text);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = W256;
  for (let offset = 0; offset < length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = message.getUint32(offset + t * 4);
    for (let t = 16; t < 64; t++) {
      const w15 = w[t - 15]!;
      const w2 = w[t - 2]!;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let a = h[0]!,
      b = h[1]!,
      c = h[2]!,
      d = h[3]!,
      e = h[4]!,
      f = h[5]!,
      g = h[6]!,
      k = h[7]!;
    for (let t = 0; t < 64; t++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[t]! + w[t]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    addBlock(h, a, b, c, d, e, f, g, k);
  }
  return hex(h);
}

export function sha1Hex(text: string): string {
  const { view: message, length } = blocks(text);
  const h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const w = W1;
  for (let offset = 0; offset < length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = message.getUint32(offset + t * 4);
    for (let t = 16; t < 80; t++) w[t] = rotl(w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!, 1);
    let a = h[0]!,
      b = h[1]!,
      c = h[2]!,
      d = h[3]!,
      e = h[4]!;
    for (let t = 0; t < 80; t++) {
      let f: number;
      let k: number;
      if (t < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (t < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (t < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const next = (rotl(a, 5) + f + e + k + w[t]!) >>> 0;
      e = d;
      d = c;
      c = rotl(b, 30) >>> 0;
      b = a;
      a = next;
    }
    addBlock(h, a, b, c, d, e);
  }
  return hex(h);
}
