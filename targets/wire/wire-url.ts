// Which URLs the over-the-wire target accepts: http(s) only, and loopback hosts only unless the user allows remote
// ones, so a fuzz (which sends forged cursors and re-sent requests) never reaches a machine by accident.

import { isIP } from 'node:net';
import { WireInputError } from './wire-error.ts';

/** True for a loopback host name or address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** Parses and checks `--url`; throws {@link WireInputError} with one line on anything off. */
export function parseWireUrl(text: string, options: { allowRemote: boolean }): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WireInputError(`--url ${JSON.stringify(text)} is not a URL (expected e.g. http://127.0.0.1:3000/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WireInputError(`--url must be http: or https:, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.username !== '' || url.password !== '') throw new WireInputError('--url must not carry credentials');
  if (!options.allowRemote && !isLoopbackHost(url.hostname)) {
    throw new WireInputError(`--url host ${url.hostname} is not a loopback address (127.0.0.1, ::1, localhost); give --allow-remote to reach it`);
  }
  return url;
}

/** The TCP port a URL names (its scheme's default when it names none). */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
