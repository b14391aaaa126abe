// Servers nobody here wrote, started on 127.0.0.1 through --serve as shipped, and their kept findings replayed
// (docs/findings/over-the-wire.md): the MCP SDK 1.32.2's own simpleStreamableHttp example from its dist, and
// @modelcontextprotocol/server-everything in its streamable HTTP mode, both with their own tools only.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';

const TRACES = fileURLToPath(new URL('../../docs/findings/wire-traces/', import.meta.url));

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('real servers over the wire, replaying their kept findings (one try each)', () => {
  // The SDK example store orders a replay by comparing IDs that end in a random suffix: whether the priming placeholder
  // sorts after the cursor depends on that draw, so its finding reproduces in some tries only (12 tries: all failing by
  // chance is about 1 in 4 000). server-everything's store replays every later event of the session, whatever the
  // stream: that one reproduces every time.
  const cases: readonly [string, number, RegExp][] = [
    ['sdk-simpleStreamableHttp--well-formed-messages', 12, /^well-formed-messages reproduced in ([1-9]|1[0-2]) of 12 tries/],
    ['server-everything--well-formed-messages', 2, /^well-formed-messages reproduced in 2 of 2 tries/],
  ];
  for (const [name, tries, reproduced] of cases) {
    it(`${name}: the server replays the store's priming placeholder {} as an event`, async () => {
      // A trace is data: its served command runs because it is named here, as a user would name it.
      const file = `${TRACES}${name}.json`;
      const served = (JSON.parse(readFileSync(file, 'utf8')) as { target: string }).target.slice('serve:'.length);
      const { code, out, err } = await run(['replay', file, '--serve', served, '--tries', String(tries)]);
      expect(err).toEqual([]);
      expect(out[0]).toMatch(reproduced);
      expect(code).toBe(1);
      expect(out.join('\n')).toMatch(/without the probe tools/);
      expect(out.join('\n')).toMatch(/carries \{\}, which is no JSON-RPC message/);
    });
  }
});
