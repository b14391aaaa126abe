// Which URLs the wire target accepts: loopback only unless remote hosts are allowed.

import { describe, expect, it } from 'vitest';
import { WireInputError } from './wire-error.ts';
import { isLoopbackHost, parseWireUrl, portOf } from './wire-url.ts';

describe('wire URLs', () => {
  it('takes loopback hosts and refuses others unless allowed', () => {
    for (const host of ['127.0.0.1', '127.5.6.7', 'localhost', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.1', '128.0.0.1', 'example.com', '[::2]', '0.0.0.0', 'localhost.example.com']) expect(isLoopbackHost(host), host).toBe(false);
    expect(parseWireUrl('http://[::1]:3000/mcp', { allowRemote: false }).port).toBe('3000');
    expect(() => parseWireUrl('http://example.com/mcp', { allowRemote: false })).toThrow(WireInputError);
    expect(parseWireUrl('http://example.com/mcp', { allowRemote: true }).hostname).toBe('example.com');
  });

  it('refuses what is no http(s) URL, and URLs with credentials', () => {
    for (const text of ['', 'mcp', '127.0.0.1:3000', 'file:///tmp/x', 'http://user:pw@127.0.0.1/mcp']) {
      expect(() => parseWireUrl(text, { allowRemote: false }), text).toThrow(WireInputError);
    }
  });

  it('knows the default ports', () => {
    expect(portOf(new URL('http://127.0.0.1/mcp'))).toBe(80);
    expect(portOf(new URL('https://127.0.0.1/mcp'))).toBe(443);
    expect(portOf(new URL('http://127.0.0.1:8080/mcp'))).toBe(8080);
  });
});
