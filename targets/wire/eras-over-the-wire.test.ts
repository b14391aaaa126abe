// Both eras over the wire: the eras a server serves are asked before the first run (a 2026-07-28 tools/list with no
// session, an initialize), and `--protocol 2026-07-28` or `mixed` runs against a served server that has them. The SDK
// 2.4.0's createMcpHandler endpoint and the dual-era reference hold, and mcp-handler 2.4.0 holds in both eras (its
// legacy era stateless, warned of its missing priming event), judged through its own echo tool; a planted server that runs a 2026-07-28 request in the legacy session a proxy attached is failed for
// it, and so is one whose 2026-07-28 exchanges carry other calls' results, seen by the echo's marker alone; a server of
// the 2025 revisions alone refuses the revision as bad input, in one line.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';

let outs = 0;
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-eras-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function fuzzServed(served: string, extra: readonly string[], steps = 12): Promise<{ code: number; text: string; err: string[] }> {
  return fuzzCommand(`exec node examples/probe-server.mjs ${served}`, extra, steps);
}

async function fuzzCommand(command: string, extra: readonly string[], steps = 12): Promise<{ code: number; text: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const args = ['fuzz', '--serve', command, '--steps', String(steps), '--restarts', '0', '--seed', '1', '--no-corpus', '--out', join(scratch, String(outs++)), ...extra];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, text: out.join('\n'), err };
}

describe('both eras over the wire', () => {
  it('the SDK 2.4.0 createMcpHandler endpoint (2026-07-28 only) is asked for its era and holds under --protocol 2026-07-28', async () => {
    const { code, text, err } = await fuzzServed('--target sdk2-modern', ['--protocol', '2026-07-28', '--runs', '3']);
    expect(err).toEqual([]);
    expect(text).toMatch(/protocol 2026-07-28/);
    expect(text).toMatch(/serves 2026-07-28 only \(asked before the first run\)/);
    expect(text).toMatch(/not judged: disconnect-stops-work: /);
    expect(text).not.toMatch(/✗/);
    expect(code).toBe(0);
  });

  it('the dual-era reference holds with both eras drawn (--protocol mixed)', async () => {
    const { code, text, err } = await fuzzServed('--target reference', ['--protocol', 'mixed', '--runs', '3']);
    expect(err).toEqual([]);
    expect(text).toMatch(/mixed: each run draws a revision per client, both eras in most runs/);
    expect(text).toMatch(/serves 2026-07-28 and the 2025 revisions/);
    expect(text).not.toMatch(/✗/);
    expect(code).toBe(0);
  });

  it('a 2026-07-28 request run in the legacy session a proxy attached is found (era-isolation)', async () => {
    // Seed 1's walk of 20 steps over the wire reaches it in its ninth run (the in-process walk differs: it offers kinds
    // the wire does not, such as expire).
    const { code, text, err } = await fuzzServed('--target modern-joins-legacy-session', ['--protocol', 'mixed', '--runs', '12', '--property', 'era-isolation', '--first'], 20);
    expect(err).toEqual([]);
    expect(text).toMatch(/✗ era-isolation violated/);
    expect(text).toMatch(/a legacy session's message, arrived on connection \d+, a 2026-07-28 exchange/);
    expect(code).toBe(1);
  });

  it('mcp-handler 2.4.0 (an echo tool of its own): both eras found; under --protocol 2026-07-28 every run ends with a verdict', async () => {
    // It answers a 2026-07-28 tools/call with its result as a JSON body: the call's result, so no call is re-issued
    // (taken for a refusal, each was, and each re-issue again in the same round, for ever).
    const modern = await fuzzServed('--mcp-handler', ['--protocol', '2026-07-28', '--runs', '3']);
    expect(modern.err).toEqual([]);
    const [, made, answered] = /calls +(\d+) tool calls made, (\d+) responses to them received/.exec(modern.text) ?? [];
    expect(Number(made)).toBeGreaterThan(0);
    expect(answered).toBe(made);
    expect(modern.text).toMatch(/serves 2026-07-28 and the 2025 revisions \(asked before the first run\)/);
    expect(modern.text).toMatch(/without the probe tools .*each call is sent as its tool "echo" with a marker in "message"/);
    // Judged through the echo's marker, which names the call and the session it was sent in (none, for 2026-07-28).
    expect(modern.text).toMatch(/judged: .*modern-exchange-stateless, modern-exchange-own-messages, era-isolation/);
    expect(modern.text).toMatch(/partly judged: modern-exchange-stateless: on the answers/);
    expect(modern.text).toMatch(/✓ no violation in 3 runs/);
    expect(modern.code).toBe(0);
    // Its 2025 era is stateless (an initialize answered without Mcp-Session-Id): the legacy clients go on without a
    // session header, their calls are made and answered, and judged. It starts its SSE answers with the result, no
    // priming event: 2025-11-25's SHOULD, a warning (the conformance suite reports it too).
    const legacy = await fuzzServed('--mcp-handler', ['--runs', '2']);
    expect(legacy.err).toEqual([]);
    expect(legacy.text).not.toMatch(/\? no verdict/);
    const [, legacyMade, legacyAnswered] = /calls +(\d+) tool calls made, (\d+) responses to them received/.exec(legacy.text) ?? [];
    expect(Number(legacyMade)).toBeGreaterThan(0);
    expect(Number(legacyAnswered)).toBeGreaterThan(0);
    expect(legacy.text).toMatch(/^nothing that fails the run in 2 runs; ⚠ warning \(fails only with --strict\): priming-event$/m);
    expect(legacy.text).toMatch(/began with a message without an event ID, not a priming event/);
    expect(legacy.code).toBe(0);
  });

  it('mcp-handler 2.4.0 with the probe tools under --protocol 2026-07-28: the heads it holds till a tool is done are deferred, and every property but one is judged', async () => {
    // mcp-handler answers a 2026-07-28 call once its tool is done, and a probe tool waits for the simulator's steps: the
    // head is reported as a stream's once the tool has started, and the answer that comes later is that stream's.
    const { code, text, err } = await fuzzServed('--mcp-handler --tools probe', ['--protocol', '2026-07-28', '--runs', '3']);
    expect(err).toEqual([]);
    expect(text).not.toMatch(/sent no response head/);
    expect(text).toMatch(/over the wire: .*, with the probe tools;/);
    expect(text).not.toMatch(/^ {2}judged: /m);
    expect(text).toMatch(/^ {2}not judged: disconnect-stops-work: /m);
    const [, made, answered] = /calls +(\d+) tool calls? made, (\d+) responses? to them received/.exec(text) ?? [];
    expect(Number(made)).toBeGreaterThan(0);
    expect(Number(answered)).toBeGreaterThan(0);
    expect(text).toMatch(/^(✓ no violation in 3 runs|nothing that fails the run in 3 runs)/m);
    expect(code, text).toBe(0);
  });

  it('without the probe tools, a server\'s own echo tool judges the 2026-07-28 properties: planted bugs found, the correct twin holds', async () => {
    const echoServer = (flags: string) => `exec node targets/wire/fixtures/echo-server.mjs --modern ${flags}`;
    // One outbox for every call: a 2026-07-28 call's stream carries the last result sent first. Run 1's first modern
    // call gets the tools check's result (a legacy session's: era isolation), its second the first's.
    const leak = await fuzzCommand(echoServer('--leak'), ['--protocol', '2026-07-28', '--runs', '2', '--property', 'modern-exchange-own-messages', '--first']);
    expect(leak.err).toEqual([]);
    expect(leak.text).toMatch(/✗ modern-exchange-own-messages violated/);
    expect(leak.text).toMatch(/the result of \S+ \(epoch \d+, no session\) arrived on connection \d+, the 2026-07-28 exchange of c\d+/);
    expect(leak.code).toBe(1);
    const crossEra = await fuzzCommand(echoServer('--leak'), ['--protocol', '2026-07-28', '--runs', '1', '--property', 'era-isolation', '--first']);
    expect(crossEra.text).toMatch(/✗ era-isolation violated/);
    expect(crossEra.text).toMatch(/the result of tools-check\/try1 \(epoch 0, session s1\), a legacy session's message, arrived on connection \d+, a 2026-07-28 exchange/);
    expect(crossEra.code).toBe(1);
    // A 2026-07-28 answer with an Mcp-Session-Id: a warning, as its sentence's keyword says.
    const session = await fuzzCommand(echoServer('--modern-session'), ['--protocol', '2026-07-28', '--runs', '2']);
    expect(session.text).toMatch(/⚠ modern-exchange-stateless violated .*warning: fails only with --strict/);
    expect(session.text).toMatch(/was answered with Mcp-Session-Id modern-session: the modern era has no session/);
    expect(session.code).toBe(0);
    // The same server without the planted bugs, under both eras.
    const correct = await fuzzCommand(echoServer(''), ['--protocol', 'mixed', '--runs', '4']);
    expect(correct.err).toEqual([]);
    expect(correct.text).toMatch(/judged: .*modern-exchange-own-messages, era-isolation/);
    expect(correct.text).toMatch(/✓ no violation in 4 runs/);
    expect(correct.code).toBe(0);
  });

  it('a server of the 2025 revisions alone: --protocol 2026-07-28 is bad input, in one line', async () => {
    const { code, text, err } = await fuzzServed('--sdk', ['--protocol', '2026-07-28', '--runs', '1']);
    expect(text).toBe('');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/--protocol 2026-07-28: serve:.*: the target serves only the legacy era/);
    expect(code).toBe(2);
  });
});
