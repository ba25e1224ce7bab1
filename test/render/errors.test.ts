import { describe, expect, it } from 'vitest';
import { ApiError, ConfigError, NetworkError, UsageError } from '../../src/errors.js';
import { renderError } from '../../src/render/failure.js';
import { ESC } from './fixtures.js';

const text = { json: false, debug: false, color: false };
const json = { json: true, debug: false, color: false };

describe('renderError: text', () => {
  it('gives an API error its status', () => {
    expect(renderError(new ApiError(404, 'queue not found', 'getQueue'), text)).toBe('mq: queue not found (404)\n');
  });

  it('gives a usage or config error its message alone', () => {
    expect(renderError(new UsageError('--priority must be urgent, high, medium, low or 0-255'), text)).toBe(
      'mq: --priority must be urgent, high, medium, low or 0-255\n',
    );
    expect(renderError(new ConfigError('no token: set MQ_TOKEN'), text)).toBe('mq: no token: set MQ_TOKEN\n');
  });

  it('calls anything else an internal error, with the stack only under --debug', () => {
    const bug = new TypeError('x is undefined');
    expect(renderError(bug, text)).toBe('mq: internal error: x is undefined\n');
    const debug = renderError(bug, { ...text, debug: true });
    expect(debug.startsWith('mq: internal error: x is undefined\n    at ')).toBe(true);
    expect(debug.endsWith('\n')).toBe(true);
    expect(renderError('thrown string', text)).toBe('mq: internal error: thrown string\n');
  });

  it('never shows the cause, which may hold the token', () => {
    const cause = new Error('request failed: x-api-token: s3cr3t');
    const rendered = [
      renderError(new NetworkError('could not reach api.trunk.io', { cause }), { ...text, debug: true }),
      renderError(new NetworkError('could not reach api.trunk.io', { cause }), { ...json, debug: true }),
    ].join('');
    expect(rendered).not.toContain('s3cr3t');
  });

  it('keeps a multi-line message, neutralises escape codes, and colours the prefix only with colour on', () => {
    expect(renderError(new ApiError(400, 'queue is not empty:\n  #42\n  #43', 'deleteQueue'), text)).toBe('mq: queue is not empty:\n  #42\n  #43 (400)\n');
    const hostile = renderError(new ApiError(500, 'oops \u001b[2J', 'getQueue'), text);
    expect(hostile).not.toContain(ESC);
    expect(renderError(new UsageError('bad'), { ...text, color: true })).toBe('\u001b[31mmq:\u001b[39m bad\n');
  });

  it('says when the service gave no message', () => {
    expect(renderError(new ApiError(502, '', 'getQueue'), text)).toBe('mq: the service answered with no message (502)\n');
  });
});

describe('renderError: JSON', () => {
  const parse = (output: string) => {
    expect(output.endsWith('\n')).toBe(true);
    expect(output.trimEnd()).not.toContain('\n');
    return JSON.parse(output) as unknown;
  };

  it('gives an API error its code, status and message', () => {
    expect(parse(renderError(new ApiError(404, 'queue not found', 'getQueue'), json))).toEqual({
      error: { code: 'not_found', status: 404, message: 'queue not found' },
    });
    expect(renderError(new ApiError(409, 'queue exists', 'createQueue'), json)).toBe('{"error":{"code":"conflict","status":409,"message":"queue exists"}}\n');
  });

  it('gives other errors a code and no status', () => {
    expect(parse(renderError(new UsageError('bad flag'), json))).toEqual({ error: { code: 'usage', message: 'bad flag' } });
    expect(parse(renderError(new Error('boom'), json))).toEqual({ error: { code: 'internal', message: 'boom' } });
  });

  it("adds a bug's stack under --debug", () => {
    const body = parse(renderError(new Error('boom'), { ...json, debug: true })) as { error: { stack?: string } };
    expect(body.error.stack).toMatch(/^\s+at /);
  });
});
