// A run is a pure function of (target, config, choices): the same inputs give byte-identical traces, the same
// fuzz writes the same files under the same names, and a written trace replays to its verdict.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { findTarget } from '../targets/index.ts';
import type { Target } from '../targets/target.ts';
import { serializeTrace } from '../traces/trace.ts';
import { planWalk, walkChoices } from './choices.ts';
import { resolveConfig } from './config.ts';
import { runSimulation } from './engine.ts';
import { recordTrace } from './search/fuzz.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-determinism-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function target(name: string): Target {
  const found = findTarget(name);
  if (found === undefined) throw new Error(`no built-in target ${name}`);
  return found;
}

/** Captures what the CLI prints. */
function capture(): { io: { out(line: string): void; err(line: string): void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (line) => out.push(line), err: (line) => err.push(line) }, out, err };
}

const TARGETS = ['reference', 'counter-ids', 'no-epoch-check', 'cross-stream-replay'];
const SEEDS = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'];

describe('same (target, config, choices), same trace', () => {
  for (const name of TARGETS) {
    it(`${name}: recording the same walk twice gives byte-identical traces (seeds ${SEEDS.join(', ')})`, async () => {
      let stepsSeen = 0;
      for (const seed of SEEDS) {
        const config = resolveConfig({ seed, stepsMax: 30 });
        const walked = await runSimulation(target(name), config, walkChoices(planWalk(seed, config.stepsMax)));
        const first = serializeTrace(await recordTrace(target(name), config, walked.choices, null));
        const second = serializeTrace(await recordTrace(target(name), config, walked.choices, null));
        expect(second).toBe(first);
        stepsSeen += walked.steps;
      }
      // The walks must have done something for equality to mean anything.
      expect(stepsSeen).toBeGreaterThan(SEEDS.length * 3);
    });
  }

  it('a walk is a function of its seed: same seed, same choices and verdict; another seed, other choices (seed d1, d2)', async () => {
    const config = resolveConfig({ seed: 'd1' });
    const walk = (seed: string) => runSimulation(target('counter-ids'), { ...config, seed }, walkChoices(planWalk(seed, config.stepsMax)));
    const first = await walk('d1');
    const again = await walk('d1');
    expect(again.choices).toEqual(first.choices);
    expect(again.violation).toEqual(first.violation);
    const other = await walk('d2');
    expect(other.choices).not.toEqual(first.choices);
  });

  it('the server randomness comes from the seed: another seed gives other session IDs (seeds s1, s2)', async () => {
    const record = async (seed: string) => serializeTrace(await recordTrace(target('reference'), resolveConfig({ seed }), [0], null));
    expect(await record('s1')).toBe(await record('s1'));
    // The sessions the responses minted, from the trace's records.
    const sessionIds = (text: string) => text.match(/"kind": "response",[^}]*"session": "\w+"/g);
    expect(sessionIds(await record('s1'))).not.toEqual(sessionIds(await record('s2')));
  });
});

describe('the CLI fuzz is reproducible (seed 7)', () => {
  const fuzzInto = async (directory: string) => {
    const { io, out, err } = capture();
    // exactly-once-execution is seed 000's advice: it fails the run with --strict=advice.
    const code = await main(['fuzz', '--target', 'no-ledger', '--runs', '2000', '--seed', '7', '--property', 'exactly-once-execution', '--strict=advice', '--out', directory], io);
    return { code, out, err, files: readdirSync(directory).sort() };
  };

  it('two fuzzes with the same seed write byte-identical traces under the same names; each replays to 1, on the reference to 0', async () => {
    const first = await fuzzInto(join(scratch, 'first'));
    const second = await fuzzInto(join(scratch, 'second'));
    expect(first.code).toBe(1);
    expect(second.code).toBe(1);
    expect(first.err).toEqual([]);
    // One trace per mechanism the property failed by (each of its own signature), the same ones both times.
    expect(first.files.length).toBeGreaterThanOrEqual(1);
    expect(second.files).toEqual(first.files);
    // What the two runs printed is the same too, once the output directory is taken out.
    expect(second.out.map((line) => line.replaceAll('second', 'first'))).toEqual(first.out);
    const signatures = new Set<string>();
    for (const name of first.files) {
      expect(name).toMatch(/^no-ledger--exactly-once-execution--[0-9a-f]{16}\.json$/);
      const written = join(scratch, 'first', name);
      const text = readFileSync(written, 'utf8');
      expect(readFileSync(join(scratch, 'second', name), 'utf8')).toBe(text);
      signatures.add(String((JSON.parse(text) as { verdict: { signature: string } }).verdict.signature));
      const replay = capture();
      expect(await main(['replay', written, '--strict=advice'], replay.io)).toBe(1);
      expect(replay.out[0]).toBe('reproduced: exactly-once-execution on no-ledger');
      const onReference = capture();
      expect(await main(['replay', written, '--target', 'reference'], onReference.io)).toBe(0);
      expect(onReference.err).toEqual([]);
    }
    // Each trace is another mechanism: no two share a signature.
    expect(signatures.size).toBe(first.files.length);
  });
});
