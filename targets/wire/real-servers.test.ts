// Servers nobody here wrote, started on 127.0.0.1 through --serve as shipped, and their kept findings replayed
// (docs/findings/over-the-wire.md): the MCP SDK 1.32.2's own simpleStreamableHttp and ssePollingExample examples from
// its dist, and @modelcontextprotocol/server-everything in its streamable HTTP mode, each with its own tools only.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';

const TRACES = fileURLToPath(new URL('../../docs/findings/wire-traces/', import.meta.url));
const SAME_MILLISECOND = new URL('./fixtures/same-millisecond.mjs', import.meta.url).href;
const RISING_CLOCK = new URL('./fixtures/rising-clock.mjs', import.meta.url).href;
const LISTEN_ON_PORT = new URL('./fixtures/listen-on-port.mjs', import.meta.url).href;
const ENVIRONMENT = { NODE_OPTIONS: process.env.NODE_OPTIONS, RESUMECHECK_TEST_RANDOM_SEED: process.env.RESUMECHECK_TEST_RANDOM_SEED };

afterEach(() => {
  for (const [name, value] of Object.entries(ENVIRONMENT)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('real servers over the wire, replaying their kept findings', () => {
  // The SDK example store names an event `${streamId}_${Date.now()}_${random suffix}` and orders a replay by comparing
  // names: the priming placeholder is replayed when it shares the cursor's millisecond and its suffix sorts after the
  // cursor's. How many events share a millisecond depends on the machine's load (by hand, 2 of 24 tries reproduced on
  // a loaded machine), so the served example runs with a still clock and a seeded Math.random
  // (fixtures/same-millisecond.mjs, loaded by the server process through NODE_OPTIONS): every event shares one
  // millisecond and seed 2 draws suffixes that put the placeholder after the cursor in each of the first three tries
  // (seed 1 in one of three), the same on every machine. server-everything's store replays every later event of the
  // session, whatever the stream: that one reproduces every time, unaided.
  const cases: readonly [string, number, RegExp, Record<string, string>][] = [
    [
      'sdk-simpleStreamableHttp--well-formed-messages',
      2,
      /^well-formed-messages reproduced in 2 of 2 tries/,
      { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${SAME_MILLISECOND}`.trim(), RESUMECHECK_TEST_RANDOM_SEED: '2' },
    ],
    ['server-everything--well-formed-messages', 2, /^well-formed-messages reproduced in 2 of 2 tries/, {}],
  ];
  for (const [name, tries, reproduced, environment] of cases) {
    it(`${name}: the server replays the store's priming placeholder {} as an event`, async () => {
      Object.assign(process.env, environment);
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

  // The SDK's polling example keeps one InMemoryEventStore for every session and finds a cursor's stream by the event
  // ID alone. Its one tool is no echo, so a call is sent as a tool it does not have, and the answer (an error result)
  // carries nothing of the call but its request ID, which names the session it was sent in (echo-marker.ts,
  // requestIdMarker): client 2's call loses its answer after the priming event, and client 1, handed that event's ID by
  // a proxy, is sent client 2's answer. The example's store orders events by name, and two events of one millisecond by
  // their random suffixes, so the served example runs with a clock that moves a millisecond at each reading
  // (fixtures/rising-clock.mjs), and its port, fixed at 3001 in its code, is the free port resumecheck gives it
  // (fixtures/listen-on-port.mjs).
  it("sdk-ssePollingExample--no-cross-session-delivery: a proxy's foreign cursor is sent the other session's answer, known by its request ID", async () => {
    Object.assign(process.env, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${RISING_CLOCK} --import ${LISTEN_ON_PORT}`.trim() });
    const file = `${TRACES}sdk-ssePollingExample--no-cross-session-delivery.json`;
    const served = (JSON.parse(readFileSync(file, 'utf8')) as { target: string }).target.slice('serve:'.length);
    const { code, out, err } = await run(['replay', file, '--serve', served, '--tries', '2']);
    expect(err).toEqual([]);
    expect(out[0]).toMatch(/^no-cross-session-delivery reproduced in 2 of 2 tries/);
    expect(out.join('\n')).toMatch(/happened: {2}the result of c1 \(epoch 1, session \S+\) was delivered to session \S+ on connection 5/);
    expect(code).toBe(1);
  });
});
