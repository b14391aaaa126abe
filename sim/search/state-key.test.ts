// A world's key says everything about its future: worlds reached by different sequences with equal keys have
// successors with the same verdicts (each checked with its liveness phase) enabling as many actions, and so on one
// level down. Checked on every pair of merged worlds up to depth 3 on the reference and on planted targets (whose
// bugs a wrong merge would hide): one level down for every pair, two levels down for a sample spread over them.

import { describe, expect, it } from 'vitest';
import { MINIMA_CONFIG } from '../../bench/minima.ts';
import { findTarget } from '../../targets/index.ts';
import type { Target } from '../../targets/target.ts';
import type { ChoiceSource } from '../engine.ts';
import { runSimulation } from '../engine.ts';
import { KeyNames, WORLD_FIELDS, worldKey, worldKeyText } from './state-key.ts';
import { type World, createWorld } from '../world.ts';
import { createPrng } from '../prng.ts';

function referenceTarget(): Target {
  return target('reference');
}

function target(name: string): Target {
  const found = findTarget(name);
  if (found === undefined) throw new Error(`no built-in target ${name}`);
  return found;
}

/** What one prefix leads to: its world's key, how many actions are enabled there, and the run's verdict. */
interface Reached {
  readonly key: string;
  readonly enabled: number;
  readonly verdict: string | null;
}

async function reach(subject: Target, prefix: readonly number[], names: KeyNames): Promise<Reached> {
  let next = 0;
  let key = '';
  let enabled = 0;
  const source: ChoiceSource = {
    choose: (world, list) => {
      if (next < prefix.length) return prefix[next++]!;
      const digest = worldKey(world as World, names)!;
      key = `${digest.hash}/${digest.check}`;
      enabled = list.count;
      return null;
    },
  };
  const result = await runSimulation(subject, MINIMA_CONFIG, source);
  return { key, enabled, verdict: result.violation === null ? null : `${result.violation.property}@${result.choices.length}` };
}

/**
 * The successors of a prefix as a sorted list of (verdict, actions enabled, deeper future), a level deep or two. The
 * successors' own actions are counted even a level deep: twins enable the same actions, and a wrong merge shows
 * there first when the step after it is one that both worlds enable but that changes them differently.
 */
async function future(subject: Target, prefix: readonly number[], levels: number, names: KeyNames): Promise<string[]> {
  const here = await reach(subject, prefix, names);
  const lines: string[] = [];
  for (let choice = 0; choice < here.enabled; choice += 1) {
    const next = await reach(subject, [...prefix, choice], names);
    // A violation in the step itself ends the run there: its length is the prefix's plus one either way.
    const verdict = next.verdict === null ? 'holds' : next.verdict.replace(/@\d+$/, '');
    const deeper = levels > 1 && next.key !== '' ? (await future(subject, [...prefix, choice], levels - 1, names)).join(',') : '';
    // By verdict, not by key: a connection that is no longer live keeps its number in a key, so twins may differ
    // there later (less merging, never a wrong one); what must agree is what every successor shows and offers.
    lines.push(`${verdict} ${next.enabled} [${deeper}]`);
  }
  return lines.sort();
}

/** Merged pairs checked two levels down per target: spread evenly over the pairs in search order. */
const DEEP_PAIRS = 20;

describe('world keys', () => {
  for (const name of ['reference', 'resume-if-known', 'no-owner-check', 'cross-stream-replay', 'replay-includes-cursor']) {
    it(`${name}: merged worlds up to depth 3 have equal futures, every pair a level down and ${DEEP_PAIRS} of them two levels down`, async () => {
      const subject = target(name);
      const names = new KeyNames();
      const first = new Map<string, number[]>();
      const pairs: Array<readonly [number[], number[]]> = [];
      const walk = async (prefix: number[]): Promise<void> => {
        const here = await reach(subject, prefix, names);
        if (here.key === '') return;
        const seen = first.get(here.key);
        if (seen !== undefined) {
          pairs.push([seen, prefix]);
          return;
        }
        first.set(here.key, prefix);
        if (prefix.length === 3) return;
        for (let choice = 0; choice < here.enabled; choice += 1) await walk([...prefix, choice]);
      };
      await walk([]);
      expect(pairs.length).toBeGreaterThan(10);
      // A world merged with several others is looked at once per depth (its prefix replays the same run).
      const futures = new Map<string, string[]>();
      const futureOf = async (prefix: readonly number[], levels: number): Promise<string[]> => {
        const id = `${levels}:${prefix.join(',')}`;
        let found = futures.get(id);
        if (found === undefined) {
          found = await future(subject, prefix, levels, names);
          futures.set(id, found);
        }
        return found;
      };
      // Bounded: a sample spread over the whole search order two levels down (a level down costs a run per successor,
      // two levels down about twenty), every other pair one level down.
      const deep = new Set<number>();
      for (let at = 0; at < Math.min(DEEP_PAIRS, pairs.length); at += 1) deep.add(Math.floor((at * pairs.length) / Math.min(DEEP_PAIRS, pairs.length)));
      for (const [at, [left, right]] of pairs.entries()) {
        const levels = deep.has(at) ? 2 : 1;
        expect(await futureOf(right, levels), `${left.join(',')} and ${right.join(',')} share a key`).toEqual(await futureOf(left, levels));
      }
    });
  }

  it('tells different worlds apart', async () => {
    const names = new KeyNames();
    const reference = target('reference');
    // 0: client 1 initializes; then 0: it calls read, 1: it calls append.
    const read = await reach(reference, [0, 0], names);
    const append = await reach(reference, [0, 1], names);
    expect(read.key).not.toBe(append.key);
    expect(await keyTextAfter(reference, [0, 0])).toContain('sread');
    expect(await keyTextAfter(reference, [0, 1])).toContain('sappend');
  });

  it('keys a world the same with the writer kept for many worlds as with a writer of its own', async () => {
    const reference = target('reference');
    const prefixes = [[0], [0, 2], [0, 2, 20], [0, 2, 21], [0, 1], [1, 0], [0, 2, 20, 3]];
    const shared = new KeyNames();
    const kept = [];
    for (const prefix of prefixes) kept.push((await reach(reference, prefix, shared)).key);
    const fresh = [];
    for (const prefix of prefixes) fresh.push((await reach(reference, prefix, new KeyNames())).key);
    expect(kept).toEqual(fresh);
    expect(new Set(kept).size).toBe(prefixes.length);
  });

  it('tells apart a connection losing the tail of its response by the frames it still has to lose', async () => {
    const names = new KeyNames();
    const reference = target('reference');
    // 0: client 1 initializes; 2: it calls work (its stream stays open); 20 or 21: the network loses the next frame or
    // the next two on that connection, then breaks it. After one step more (the server advances work), the first
    // connection has broken and the client may resume; the second is still losing.
    const one = await reach(reference, [0, 2, 20], names);
    const two = await reach(reference, [0, 2, 21], names);
    expect(one.key).not.toBe(two.key);
    expect(await keyTextAfter(reference, [0, 2, 20])).toContain('.framesToLose 1');
    expect(await keyTextAfter(reference, [0, 2, 21])).toContain('.framesToLose 2');
  });

  it('names only fields the world has', () => {
    const world = createWorld(MINIMA_CONFIG, { sync: true, boot: () => { throw new Error('unused'); }, close: () => undefined }, createPrng('x'));
    for (const field of Object.keys(WORLD_FIELDS)) expect(Object.keys(world), field).toContain(field);
  });

  it("the kit server keys and snapshots every field it has: a new one must be added to both (server-kit.ts)", async () => {
    const run = await referenceTarget().open({ windowEventsMax: 2, seed: '1' });
    const server = run.boot({ epoch: 1 }, { frame: () => undefined, end: () => undefined, startExecution: () => 0, nextStep: () => ({ kind: 'result', result: {} }), cancelled: () => undefined, random: () => 0 });
    // `delivery` is keyed and snapshot by its parts (attachments, the lag's queue and tick); `node` is 0 on the one node
    // a keyed server runs (several nodes are never keyed). `decided` counts the rules decided for decision coverage,
    // taken after every operation, and `decidedAny` says whether it holds anything since the last take; no answer reads
    // either, so they are neither keyed nor snapshot.
    expect(Object.keys(server).sort()).toEqual(['decided', 'decidedAny', 'delivery', 'executions', 'host', 'node', 'strategy']);
    const state = (server as unknown as { strategy: { state: object } }).strategy.state;
    expect(Object.keys(state).sort()).toEqual(['config', 'sessions', 'sessionsByIndex', 'stateless']);
  });

  it('a connection has the fields the key was judged for: whether a new one is read after the connection closes decides if closed connections may still be left out', async () => {
    let fields: string[] = [];
    let next = 0;
    await runSimulation(referenceTarget(), MINIMA_CONFIG, {
      choose: (world) => {
        if (next < 1) return [0][next++]!;
        fields = Object.keys((world as World).connections[0]!).sort();
        return null;
      },
    });
    // `node` is 0 in every keyed world: only one-node targets are keyed. `responded` is read when the server ends the
    // connection, which a closed one never sees again. `framed` is read (by priming-event) only when a
    // frame arrives on the connection while it is attached: a closed connection's frames are dropped before any monitor.
    // `framesKept` (a lossy call's) likewise: counted down only by a frame arriving while the connection is attached.
    expect(fields).toEqual(['client', 'cursor', 'epoch', 'framed', 'framesKept', 'framesToLose', 'index', 'kExpected', 'kLast', 'lastEventId', 'node', 'openedBy', 'purpose', 'resetReason', 'resetSeen', 'responded', 'session', 'sessionIdAnswered', 'state', 'status', 'view']);
  });

  it('is null for a target that cannot key its state', async () => {
    expect(await keyTextAfter(target('counter-ids'), [0])).toBeNull();
  });
});

/** The key text of the world after `prefix`, or null when its target cannot key its state. */
async function keyTextAfter(subject: Target, prefix: readonly number[]): Promise<string | null> {
  let next = 0;
  let text: string | null | undefined;
  await runSimulation(subject, MINIMA_CONFIG, {
    choose: (world) => {
      if (next < prefix.length) return prefix[next++]!;
      text = worldKeyText(world as World);
      return null;
    },
  });
  if (text === undefined) throw new Error('the prefix did not end in the fault phase');
  return text;
}
