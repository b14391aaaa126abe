// `fuzz --nodes/--balancer/--store-lag` from the command line: bad input is one line and exit 2 before any run; a
// multi-node trace replays by its target name alone.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../cli/run-in-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-nodes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = runInProcess;

describe('fuzz --nodes: bad input', () => {
  const cases: [string, string[], RegExp][] = [
    ['--balancer without --nodes', ['--target', 'reference', '--balancer', 'sticky'], /--balancer and --store-lag need --nodes/],
    ['--store-lag without --nodes', ['--target', 'reference', '--store-lag', '2'], /need --nodes/],
    ['too many nodes', ['--target', 'reference', '--nodes', '9'], /--nodes/],
    ['an unknown balancer', ['--target', 'reference', '--nodes', '2', '--balancer', 'least-busy'], /--balancer takes one of sticky, round-robin, random, failover/],
    ['a store lag on an SDK target', ['--target', 'sdk-core', '--nodes', '2', '--store-lag', '1'], /--store-lag applies to the kit targets/],
    ['--nodes on a target that already names its nodes', ['--target', 'reference@2:sticky', '--nodes', '3'], /already names its nodes/],
    ['a malformed multi-node target name', ['--target', 'reference@12:sticky'], /target "reference@12:sticky"/],
  ];
  for (const [what, args, message] of cases) {
    it(`${what}: exit 2, one line`, async () => {
      const result = await run(['fuzz', ...args, '--runs', '1', '--out', scratch]);
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(message);
    });
  }
});

describe('fuzz --nodes: a finding replays by name', () => {
  it('seed 1: no-handoff --nodes 3 --balancer round-robin exits 1, writes a no-handoff@3:round-robin trace that replays to 1', async () => {
    const out = join(scratch, 'found');
    // What a node that hands nothing off breaks first may be seed advice: --strict=advice makes any finding fail.
    const fuzzed = await run(['fuzz', '--target', 'no-handoff', '--nodes', '3', '--balancer', 'round-robin', '--runs', '500', '--first', '--strict=advice', '--out', out]);
    expect(fuzzed.code).toBe(1);
    expect(fuzzed.out[0]).toContain('target no-handoff@3:round-robin');
    const [file] = readdirSync(out);
    expect(file).toMatch(/^no-handoff_3_round-robin--/);
    const replayed = await run(['replay', join(out, file!), '--strict=advice']);
    expect(replayed.code).toBe(1);
    expect(replayed.out[0]).toMatch(/^reproduced: .* on no-handoff@3:round-robin$/);
    // The same choices hold on the reference deployment.
    const onReference = await run(['replay', join(out, file!), '--target', 'reference@3:round-robin']);
    expect(onReference.code).toBe(0);
  });
});

describe('fuzz --nodes: a deployment where no session survives is no pass', () => {
  it('seed 1: sdk-core --nodes 3 --balancer round-robin says no session survived its second request, exit 1, no check mark', async () => {
    const result = await run(['fuzz', '--target', 'sdk-core', '--nodes', '3', '--balancer', 'round-robin', '--runs', '5', '--workers', '1', '--no-corpus', '--out', join(scratch, 'unjudged')]);
    expect(result.code).toBe(1);
    expect(result.out.some((line) => line.startsWith('✓'))).toBe(false);
    expect(result.out[1]).toMatch(/^\? no verdict in 5 runs .*: no session survived its second request \(\d+ sessions established/);
    expect(result.out).toContainEqual(expect.stringMatching(/^ {2}sessions {3}0 of \d+ outlived their initialize/));
  });

  it('seed 1: behind sticky the sessions survive and the verdict is the usual one', async () => {
    const result = await run(['fuzz', '--target', 'reference', '--nodes', '3', '--balancer', 'sticky', '--runs', '20', '--no-corpus', '--out', join(scratch, 'judged')]);
    expect(result.code).toBe(0);
    expect(result.out).toContainEqual(expect.stringMatching(/^✓ no violation in 20 runs/));
    expect(result.out).toContainEqual(expect.stringMatching(/^ {2}sessions {3}(\d+) of \1 outlived their initialize/));
  });
});
