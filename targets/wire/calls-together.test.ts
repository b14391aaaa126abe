// Two sessions' calls at once under one request ID (callTogether), over the wire: a server that sends each answer to
// every call in flight under its request ID, in any session (mcp-framework 0.2.22's broadcast, planted in the echo
// fixture), is found by the echo's marker, shrunk to the three steps that show it; the same server answering each call
// its own holds. The fixture holds a call until the next request reaches it (300 ms at the most), so the two requests
// of a callTogether are both in the server before either is answered, whatever the machine's load.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-together-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function fuzz(flags: string, out: string): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const args = ['fuzz', '--serve', `exec node targets/wire/fixtures/echo-server.mjs ${flags}`, '--property', 'no-cross-session-delivery', '--first', '--runs', '4', '--steps', '8', '--restarts', '0', '--seed', '5', '--no-corpus', '--out', join(scratch, out)];
  const code = await main(args, { out: (line) => lines.push(line), err: (line) => lines.push(line) });
  return { code, text: lines.join('\n') };
}

describe('two sessions call at once under one request ID', () => {
  it('a server that sends an answer to every call in flight under its request ID gives one session the other\'s result', async () => {
    const { code, text } = await fuzz('--hold --broadcast', 'broadcast');
    expect(text).toMatch(/^✗ no-cross-session-delivery violated by serve:/m);
    expect(text).toMatch(/^ {2}happened: {2}the result of (c\d+) \(epoch 1, session s\d+\) was delivered to session s\d+ on connection \d+$/m);
    expect(text).toMatch(/^ {2}how: {7}callTogether \/ message$/m);
    // Shrunk to the two initializes and the calls at once, both requests under the same ID.
    expect(text).toMatch(/^ {2}3\. client \d and client \d call read at once \(both requests out before either is answered\)$/m);
    const together = /POST #(\d+) tools\/call read as c\d+ \(request (\d+)\)\n\s+POST #(\d+) tools\/call read as c\d+ \(request (\d+)\)/.exec(text);
    expect(together, text).not.toBeNull();
    expect(together![2]).toBe(together![4]);
    expect(code).toBe(1);
  });

  it('clients a server put in one session never call at once: one ID twice in a session would be a reuse', async () => {
    const { code, text } = await fuzz('--hold --broadcast --one-session', 'one-session');
    expect(text).toMatch(/^ {2}actions .*never: .*\bcallTogether\b/m);
    expect(text).not.toMatch(/violated by/);
    expect(code, text).toBe(0);
  });

  it('the same server answering each call its own holds', async () => {
    const { code, text } = await fuzz('--hold', 'own');
    expect(text).toMatch(/^✓ no violation in 4 runs/m);
    // The calls at once were made: the kind is not among those never taken.
    expect(text).toMatch(/^ {2}actions {4}.*$/m);
    expect(/^ {2}actions .*never: .*\bcallTogether\b/m.test(text), text).toBe(false);
    expect(code).toBe(0);
  });
});
