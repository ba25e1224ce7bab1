import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/api/loopback.js';

describe('isLoopback', () => {
  it('takes 127.0.0.0/8, [::1] and localhost, as the WHATWG parser writes them, and nothing else', () => {
    const loopback = ['http://127.0.0.1:9', 'http://127.1', 'http://0x7f.0.0.1', 'http://127.255.255.255/v1', 'http://LOCALHOST', 'http://[::1]:8080'];
    const other = [
      'http://127.foo.com',
      'http://127.0.0.1.nip.io',
      'http://128.0.0.1',
      'http://10.0.0.1',
      'http://[::2]',
      'http://localhost.com',
      'https://api.trunk.io',
    ];
    expect(loopback.filter((url) => !isLoopback(new URL(url)))).toEqual([]);
    expect(other.filter((url) => isLoopback(new URL(url)))).toEqual([]);
  });

  it('answers as the pattern it replaced, on hosts at its edges', () => {
    const pattern = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
    const hosts = ['127.0.0.1', '127.00.000.1', '127.0.0.1234', '127.0.0', '127..0.1', '127.0.0.1.', '1127.0.0.1', '127.a.0.1', '127.0.0.-1'];
    for (const host of hosts) {
      const url = { hostname: host } as URL;
      expect(isLoopback(url), host).toBe(pattern.test(host));
    }
  });
});
