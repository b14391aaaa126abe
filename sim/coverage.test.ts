// Decision coverage (sim/coverage.ts): the rules of the decision core a run reached, as the target reports them, and
// the rules its configuration rules out. One scripted run on one node reaches superseded-stream and aborted-stream.

import { describe, expect, it } from 'vitest';
import { RULES } from '../core/decide.ts';
import { freshLiteralTarget } from '../targets/planted/fresh-literal.target.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import type { Target } from '../targets/target.ts';
import { MODEL, type ModelMachine } from '../model/index.ts';
import { multiNodeTarget } from '../targets/multi-node/multi-node.target.ts';
import { noHandoffTarget } from '../targets/multi-node/no-handoff.target.ts';
import { counterIdsTarget } from '../targets/planted/counter-ids.target.ts';
import { noEpochCheckTarget } from '../targets/planted/no-epoch-check.target.ts';
import { referenceModernTarget } from '../targets/reference/reference-modern.target.ts';
import { planWalk, walkChoices } from './choices.ts';
import { DEFAULT_CONFIG, type SimConfig } from './config.ts';
import { type CoveredMachine, CoverageObserver, coverageReport, emptyCoverage } from './coverage.ts';
import { runSimulation } from './engine.ts';
import { runSeed } from './search/fuzz.ts';
import { scriptChoices } from './shrink/script.ts';
import type { World } from './world.ts';
import { levelOf } from './levels/level.ts';

const SCRIPT = [
  'client 1 initializes',
  'client 1 opens a standalone GET stream',
  'the network cuts connection #2',
  'client 1 opens a standalone GET stream',
  'client 1 resumes its superseded standalone stream',
  'client 1 calls work',
  'the network cuts connection #5',
  "the server's tool work of c1 fails mid-stream",
  'client 1 resumes the stream of c1 with its latest cursor',
];

async function coverageOf(target: Target) {
  const counts = emptyCoverage();
  const observer = new CoverageObserver(counts);
  const result = await runSimulation(target, DEFAULT_CONFIG, scriptChoices(SCRIPT), { coverage: observer });
  observer.finish();
  return { result, counts, report: coverageReport(counts) };
}

describe('decision coverage (seed 1)', () => {
  it('one run on one node decides superseded-stream and aborted-stream on the reference, and holds', async () => {
    const { result, counts, report } = await coverageOf(referenceTarget);
    expect(result.violation).toBeNull();
    expect(counts.decisionRuns).toBe(1);
    expect(counts.decisions[RULES.indexOf('superseded-stream')]).toBe(1);
    expect(counts.decisions[RULES.indexOf('aborted-stream')]).toBe(1);
    expect(report.decisions!.missed).not.toContain('superseded-stream');
    expect(report.decisions!.missed).not.toContain('aborted-stream');
    // The reference's policy is replay-unsent: the other policies' rows, the modern rows without a 2026-07-28 client,
    // the 2026-07-28-only endpoint's rows and a stream limit of 10 000 are out of this run's scope.
    expect(report.decisions!.outOfScope.map((entry) => entry.rule)).toEqual([
      'stream-limit',
      'completed-replay-tail',
      'completed-fresh-silent',
      'completed-fresh-reset',
      'modern-execute',
      'modern-notification',
      'modern-only-method-not-allowed',
      'modern-only-legacy-refused',
    ]);
    expect(report.decisions!.total).toBe(RULES.length - 8);
  });

  it("a planted policy's own row is in scope and the reference's is not (fresh-literal)", async () => {
    const { report } = await coverageOf(freshLiteralTarget);
    const outOfScope = report.decisions!.outOfScope.map((entry) => entry.rule);
    expect(outOfScope).toContain('completed-replay-unsent');
    expect(outOfScope).not.toContain('completed-fresh-silent');
  });
});

/**
 * The counting as it was first written: every entity of the world read after every operation, looked up by machine
 * name. The observer reads an entity only until it is in a state it cannot leave; its counts must be these.
 */
class EveryEntityObserver extends CoverageObserver {
  private readonly last = new Map<string, number>();
  private readonly sessionsSeen = new Set<number>();
  private readonly sessionsSurvived = new Set<number>();
  readonly naive = emptyCoverage();

  override beginRun(): void {
    super.beginRun();
    this.last.clear();
    this.sessionsSeen.clear();
    this.sessionsSurvived.clear();
  }

  override observe(world: World): void {
    super.observe(world);
    this.read('server', 0, world.serverState);
    for (const client of world.clients) this.read('client', client.index, client.state);
    for (const session of world.sessions) {
      if (!this.sessionsSeen.has(session.index)) {
        this.sessionsSeen.add(session.index);
        this.naive.sessions.established += 1;
      }
      this.read('session', session.index, session.state);
    }
    for (const view of world.views) this.read('stream', view.index, view.stream);
    for (const connection of world.connections) {
      this.read('connection', connection.index, connection.state);
      const session = connection.session;
      if (session === null || connection.purpose === 'initialize' || connection.status === 0 || connection.status === 404) continue;
      if (this.sessionsSeen.has(session.index) && !this.sessionsSurvived.has(session.index)) {
        this.sessionsSurvived.add(session.index);
        this.naive.sessions.survived += 1;
      }
    }
  }

  private read(name: CoveredMachine, index: number, state: number): void {
    const machine = MODEL[name] as ModelMachine;
    const key = `${name} ${index}`;
    let before = this.last.get(key);
    if (before === state) return;
    this.last.set(key, state);
    if (before === undefined) {
      this.naive.states[name][machine.initial]! += 1;
      before = machine.initial;
      if (before === state) return;
    }
    this.naive.states[name][state]! += 1;
    const events = machine.events.length;
    let direct = false;
    for (let event = 0; event < events; event += 1) if (machine.next[before * events + event] === state) direct = true;
    if (direct) this.naive.transitions[name][before * machine.states.length + state]! += 1;
  }
}

describe('machine coverage counts every entity it would count by reading all of them after every operation', () => {
  const cases: ReadonlyArray<{ readonly target: Target; readonly config: SimConfig }> = [
    { target: referenceTarget, config: DEFAULT_CONFIG },
    { target: referenceTarget, config: { ...DEFAULT_CONFIG, protocol: 'mixed', stepsMax: 80 } },
    { target: referenceModernTarget, config: DEFAULT_CONFIG },
    { target: counterIdsTarget, config: DEFAULT_CONFIG },
    { target: noEpochCheckTarget, config: { ...DEFAULT_CONFIG, clients: 3 } },
    { target: multiNodeTarget(noHandoffTarget, { nodes: 2, balancer: 'round-robin', storeLagSteps: 1 }), config: DEFAULT_CONFIG },
  ];
  it.each(cases)('$target.name ($config.protocol, $config.clients clients, up to $config.stepsMax steps): 300 fuzz-shaped runs', async ({ target, config }) => {
    const observer = new EveryEntityObserver(emptyCoverage());
    let violations = 0;
    for (let run = 1; run <= 300; run += 1) {
      const seed = runSeed('coverage', run);
      const result = await runSimulation(target, { ...config, seed }, walkChoices(planWalk(seed, config.stepsMax, levelOf(target)?.faultKinds)), { coverage: observer });
      if (result.violation !== null) violations += 1;
    }
    observer.finish();
    const { counts, naive } = observer;
    expect(counts.states).toEqual(naive.states);
    expect(counts.transitions).toEqual(naive.transitions);
    expect(counts.sessions).toEqual(naive.sessions);
    // The runs reach states the observer stops reading in (an answered connection, a completed stream), and, where
    // the target keeps sessions, sessions that survive.
    expect(naive.states.connection[MODEL.connection.state.answered]).toBeGreaterThan(0);
    expect(naive.states.stream[MODEL.stream.state.completed]).toBeGreaterThan(0);
    if (target !== referenceModernTarget) expect(naive.sessions.survived).toBeGreaterThan(0);
    if (target === referenceTarget && config === DEFAULT_CONFIG) expect(violations).toBe(0);
  });
});
