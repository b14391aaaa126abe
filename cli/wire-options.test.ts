// Bad input over the wire gets exit 2 and one line on stderr, never a hang or a stack trace, and a server resumecheck
// started is always stopped: a malformed URL, a non-loopback host, nothing listening, a command that exits, one that
// never listens, one that crashes mid-run. Every server here is on 127.0.0.1 and bounded in time.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../sim/config.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { WireInputError } from '../targets/wire/wire-error.ts';
import { serializeTrace } from '../traces/trace.ts';
import { createWireTarget } from '../targets/wire/wire.target.ts';
import { main } from './main.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-wire-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

/** True while a process with this ID is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A --serve command that records its process ID in `file`, then becomes `command` (same process, via exec). */
function recording(file: string, command: string): string {
  return `echo $$ > ${file}; exec ${command}`;
}

function pidIn(file: string): number {
  expect(existsSync(file)).toBe(true);
  return Number(readFileSync(file, 'utf8').trim());
}

describe('bad input over the wire: exit 2, one line on stderr', () => {
  const cases: readonly [string, string[], RegExp][] = [
    ['a malformed --url', ['fuzz', '--url', 'not a url'], /is not a URL/],
    ['a --url that is not http', ['fuzz', '--url', 'ftp://127.0.0.1/mcp'], /must be http/],
    ['a non-loopback host', ['fuzz', '--url', 'http://10.20.30.40:8080/mcp'], /not a loopback address.*--allow-remote/],
    ['a --url with nothing listening', ['fuzz', '--url', 'http://127.0.0.1:9/mcp'], /nothing answers an MCP initialize/],
    ['--target and --url together', ['fuzz', '--target', 'reference', '--url', 'http://127.0.0.1:9/mcp'], /not both/],
    ['a --serve command that exits at once', ['fuzz', '--serve', 'exit 3'], /exited with code 3 before it listened/],
    ['--workers above 1 over the wire', ['fuzz', '--serve', 'exit 3', '--workers', '2'], /--workers goes with --target/],
    ['--shrink-all without a server', ['fuzz', '--target', 'reference', '--shrink-all'], /--shrink-all is for a server over the wire/],
    ['--nodes over the wire', ['fuzz', '--url', 'http://127.0.0.1:9/mcp', '--nodes', '2'], /--nodes, --balancer and --store-lag go with --target/],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const { code, out, err } = await run(args);
      expect(code).toBe(2);
      expect(out).toEqual([]);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(message);
      expect(err[0]).not.toMatch(/\n\s+at /);
    });
  }
});

it('replay --tries without a server is bad input: an in-process replay is deterministic', async () => {
  const trace = await recordTrace(referenceTarget, resolveConfig({ seed: 'tries' }), [0, 0], null);
  const file = join(scratch, 'trace.json');
  writeFileSync(file, serializeTrace(trace));
  const { code, err } = await run(['replay', file, '--tries', '3']);
  expect(code).toBe(2);
  expect(err).toEqual(['resumecheck: --tries goes with --url or --serve: an in-process replay is deterministic']);
});

describe('the served server is always stopped', () => {
  it('a command that never listens is stopped at the bound (its process gone) and is bad input', async () => {
    const file = join(scratch, 'never.pid');
    const target = await createWireTarget({ url: null, serve: recording(file, 'sleep 30'), allowRemote: false, timing: { listenMsMax: 1_500 } });
    await expect(target.prepare()).rejects.toThrow(WireInputError);
    await target.stop();
    expect(alive(pidIn(file))).toBe(false);
  });

  it('after a fuzz that holds, the server process is gone', async () => {
    const file = join(scratch, 'holds.pid');
    const { code, out } = await run(['fuzz', '--serve', recording(file, 'node examples/probe-server.mjs --target reference'), '--runs', '2', '--steps', '8', '--restarts', '0']);
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/with the probe tools/);
    expect(alive(pidIn(file))).toBe(false);
  });

  it('fuzz --json over the wire: one envelope, the wire options in its config, what was driven in its result', async () => {
    const file = join(scratch, 'json.pid');
    const { code, out } = await run(['fuzz', '--serve', recording(file, 'node examples/probe-server.mjs --target reference'), '--runs', '2', '--steps', '6', '--restarts', '0', '--json', '--no-corpus', '--out', join(scratch, 'json-out')]);
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const document = JSON.parse(out[0]!);
    expect(document).toMatchObject({ schemaVersion: 1, tool: 'resumecheck', command: 'fuzz', runs: 2, violations: [] });
    // Over the wire the version fault is always offered.
    expect(document.config.sim.versionFaults).toBe(true);
    expect(document.config.wire.serve).toMatch(/probe-server\.mjs --target reference/);
    expect(document.wire.probe).toBe(true);
    expect(document.wire.unsupported.map((entry: { kind: string }) => entry.kind)).toEqual(['serverClose', 'expire', 'abortTool']);
    expect(alive(pidIn(file))).toBe(false);
  });

  it('a server that crashes mid-run: exit 3 (not bad input), one line naming what happened, and nothing left running', async () => {
    const file = join(scratch, 'crash.pid');
    // The shell starts the server, waits until it listens (a fixed sleep was shorter than its start on a loaded
    // machine, which then failed before it listened), lets it answer for a moment, then kills it and exits: a crash
    // mid-run.
    const listening = `node -e "const net = require('node:net'); const poll = () => net.connect(Number(process.env.PORT), '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => setTimeout(poll, 50)); poll();"`;
    const command = `echo $$ > ${file}; node examples/probe-server.mjs --target reference & ${listening}; sleep 1; kill -9 $!; exit 9`;
    const { code, out, err } = await run(['fuzz', '--serve', command, '--runs', '100000', '--steps', '30', '--restarts', '0']);
    // The fuzz ends with what it did (the reference violates nothing): exit 3, the fault said on stdout, no stack trace.
    expect(code).toBe(3);
    expect(err).toEqual([]);
    const fault = out.filter((line) => line.startsWith('✗ the server failed mid-run'));
    expect(fault).toHaveLength(1);
    expect(fault[0]).toMatch(/exited with code 9|failed a|no response head/);
    // No pass after a server that failed: the verdict line says what was judged.
    expect(out.filter((line) => line.startsWith('✓'))).toEqual([]);
    expect(out).toContainEqual(expect.stringMatching(/^\? no verdict in \d+ runs \(\d+ steps\): the server failed mid-run \(above\), so the fuzz judged only the runs before it$/));
    expect(alive(pidIn(file))).toBe(false);
  });
});

describe('a served server gives a verdict only where a tool call was answered', () => {
  it('a server that refuses every initialize: the clients never get past it, so the fuzz says it judged no call (exit 1)', async () => {
    const { code, out } = await run(['fuzz', '--serve', 'node cli/fixtures/json-server.mjs --refuse-initialize', '--runs', '2', '--steps', '8', '--restarts', '0', '--no-corpus', '--out', join(scratch, 'stateless')]);
    expect(code).toBe(1);
    expect(out.filter((line) => line.startsWith('✓'))).toEqual([]);
    expect(out).toContainEqual(expect.stringMatching(/^\? no verdict in 2 runs \(\d+ steps\): no tool call was made, and no initialize gave a session, so no property that judges a call's stream or its result had anything to judge/));
    expect(out).toContain("  calls      0 tool calls made, 0 responses to them received (a re-sent call's included)");
    // --min-coverage sets a gate of its own in place of this one: 0 lifts it, and what was judged passed.
    const lifted = await run(['fuzz', '--serve', 'node cli/fixtures/json-server.mjs --refuse-initialize', '--runs', '2', '--steps', '8', '--restarts', '0', '--no-corpus', '--min-coverage', '0', '--out', join(scratch, 'stateless-lifted')]);
    expect(lifted.out.filter((line) => line.startsWith('? no verdict'))).toEqual([]);
    expect(lifted.code).toBe(0);
  });

  it('a stateless server (an initialize answered without a session ID): the clients go on without a session header, and their calls are judged', async () => {
    // The server answers 404 to any request naming a session (it knows none): a client that sent one would lose its
    // session at its second request, and the fuzz would say no session survived.
    const { code, out } = await run(['fuzz', '--serve', 'node cli/fixtures/json-server.mjs', '--runs', '2', '--steps', '8', '--no-corpus', '--out', join(scratch, 'unnamed')]);
    expect(out.filter((line) => line.startsWith('? no verdict'))).toEqual([]);
    expect(out).toContainEqual(expect.stringMatching(/^  sessions   ([1-9]\d*) of \1 outlived their initialize/));
    expect(out.find((line) => line.startsWith('  calls'))).toMatch(/^  calls      [1-9]\d* tool calls? made, [1-9]\d* responses? to them received/);
    expect(out).toContainEqual(expect.stringMatching(/^✓ no violation in 2 runs/));
    expect(code, out.join('\n')).toBe(0);
  });

  it('the same server with a session: its calls are made and answered, and the fuzz gives its verdict', async () => {
    const { code, out } = await run(['fuzz', '--serve', 'node cli/fixtures/json-server.mjs --sessions', '--runs', '2', '--steps', '8', '--restarts', '0', '--no-corpus', '--out', join(scratch, 'sessions')]);
    expect(out.filter((line) => line.startsWith('? no verdict'))).toEqual([]);
    const calls = out.find((line) => line.startsWith('  calls'));
    expect(calls).toMatch(/^  calls      [1-9]\d* tool calls? made, [1-9]\d* responses? to them received \(a re-sent call's included\)$/);
    // Nothing it is judged by fails there (its answers are well formed, its statuses allowed): the verdict is a pass.
    expect(out).toContainEqual(expect.stringMatching(/^✓ no violation in 2 runs/));
    expect(code, out.join('\n')).toBe(0);
  });
});

describe('retry-before-close over the wire: a server that polls on its own (closes a call\'s connection after its priming event)', () => {
  // One call a session: the finding needs one call whose connection the server ends (seed 1 meets it in run 1 and
  // again in run 2), and each shrink candidate is a whole run against the server, so with fewer calls to re-send or
  // resume the shrink makes 27 runs (to 2 steps) where it made 102 (to 4) at the default of 3 calls.
  const args = (server: string, out: string): string[] => ['fuzz', '--serve', server, '--property', 'retry-before-close', '--runs', '2', '--steps', '8', '--calls', '1', '--restarts', '0', '--no-corpus', '--out', join(scratch, out)];

  it('without a retry field: a warning, found when the resume of the stream carries the answer (exit 0; 1 with --strict)', async () => {
    const { code, out } = await run(args('node cli/fixtures/json-server.mjs --sessions --poll', 'poll'));
    expect(out).toContain('nothing that fails the run in 2 runs; ⚠ warning (fails only with --strict): retry-before-close');
    // The connection it ended is a call's, or a call re-sent with a stale Last-Event-ID (a proxy's), which the fixture
    // answers on as a resume of that call's stream: which one depends on the walk.
    expect(out).toContainEqual(expect.stringMatching(/^  happened:  the server ended connection \d+ \((call|resend)\) before answering c1 there, with no reset and no event with a retry field on its stream before, and the stream went on: connection \d+, resuming it, carries the answer$/));
    expect(code).toBe(0);
    // It fails nothing, so it is kept as found: over the wire a shrink candidate is a whole run against the server.
    expect(out).toContainEqual(expect.stringMatching(/^── found in run \d+ \(seed [\w.]+\); not shrunk \(\d+ steps\): it fails nothing, and over the wire only what fails the run is shrunk \(--shrink-all shrinks it\)$/));
    const strict = await run([...args('node cli/fixtures/json-server.mjs --sessions --poll', 'poll-strict'), '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.out).toContainEqual(expect.stringMatching(/^── found in run \d+ \(seed [\w.]+\); shrunk from \d+ to \d+ steps in \d+ runs$/));
    const all = await run([...args('node cli/fixtures/json-server.mjs --sessions --poll', 'poll-all'), '--shrink-all']);
    expect(all.code).toBe(0);
    expect(all.out).toContainEqual(expect.stringMatching(/^── found in run \d+ \(seed [\w.]+\); shrunk from \d+ to \d+ steps in \d+ runs$/));
  });

  it('with `retry:` in the priming event: it holds', async () => {
    const { code, out } = await run(args('node cli/fixtures/json-server.mjs --sessions --poll --retry 500', 'poll-retry'));
    expect(out).toContainEqual(expect.stringMatching(/^✓ no violation in 2 runs/));
    expect(code).toBe(0);
  });
});

describe('unsupported-version-400 over the wire: the version fault is always on for a served server', () => {
  const args = (server: string, out: string): string[] => ['fuzz', '--serve', server, '--property', 'unsupported-version-400', '--runs', '3', '--steps', '8', '--restarts', '0', '--no-corpus', '--out', join(scratch, out)];

  it('a server answering an unsupported MCP-Protocol-Version with 404 for a live session (as @hono/mcp 0.3.2 does) fails it (exit 1)', async () => {
    const { code, out } = await run(args('node cli/fixtures/json-server.mjs --sessions --version-404', 'version-404'));
    expect(out).toContainEqual(expect.stringMatching(/^✗ unsupported-version-400 violated by serve:/));
    expect(out).toContainEqual(expect.stringMatching(/^  happened:  the standalone GET with MCP-Protocol-Version 1999-01-01 \(connection \d+\) got 404, expected 400$/));
    expect(out).toContainEqual(expect.stringMatching(/GET #\d+ \(standalone stream\) MCP-Protocol-Version: 1999-01-01$/));
    expect(code).toBe(1);
  });

  it('the same server answering 400: it holds', async () => {
    const { code, out } = await run(args('node cli/fixtures/json-server.mjs --sessions', 'version-400'));
    expect(out).toContainEqual(expect.stringMatching(/^✓ no violation in 3 runs/));
    expect(code).toBe(0);
  });
});
