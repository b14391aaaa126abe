// Coverage of a fuzz: which states and transitions of each model machine, which action kinds and which rules of
// the decision core (on targets built on it, which report what they decided) its runs reached.
// The engine hands every step's action kind and, after every operation, the world to an observer; machine
// states are read from the world (not hooked into each `step()` call), so a transition is a change of state
// seen between two operations. Every entity is created in its machine's initial state, so a new one counts
// that state and the step out of it. One operation that takes an entity through two transitions shows as the
// pair (first state, last state), counted only when the table has that transition directly: the figures are
// a lower bound of what the runs reached, never more.

import { RULES, type Rule } from '../core/decide.ts';
import { MODEL, type ModelMachine } from '../model/index.ts';
import { ACTION_KINDS, type ActionKind } from './config.ts';
import type { DecisionConfig } from '../targets/target.ts';
import { type SimConnection, type World, isModernClient } from './world.ts';

/** The machines whose coverage is counted, by name, in a fixed order. */
export const COVERED_MACHINES = ['stream', 'session', 'server', 'connection', 'client'] as const;

/** One machine's name. */
export type CoveredMachine = (typeof COVERED_MACHINES)[number];

/** Counts a fuzz gathers, in a form that crosses threads (plain numbers). */
export interface CoverageCounts {
  /** Per machine: how often each state was seen (indexed as the machine's states). */
  readonly states: Readonly<Record<CoveredMachine, number[]>>;
  /** Per machine: how often each transition was seen, indexed `from * states + to`. */
  readonly transitions: Readonly<Record<CoveredMachine, number[]>>;
  /** How often each action kind was taken, indexed as ACTION_KINDS. */
  readonly actions: number[];
  /** How often each rule of the decision core was decided, indexed as RULES (targets that report it only). */
  readonly decisions: number[];
  /**
   * Per rule (indexed as RULES): runs whose configuration rules it out (another completed-stream policy's row, a
   * modern row without a 2026-07-28 client, a legacy row on a 2026-07-28-only endpoint, a stream limit beyond the
   * run's steps).
   */
  readonly decisionsExcluded: number[];
  /** Runs whose target reported its decisions (0: none did, and `decisions` says nothing). */
  decisionRuns: number;
  /**
   * Sessions established (an initialize answered with a session ID), and those of them that survived their second
   * request: some later request in the session was answered with anything but 404. None surviving means nothing past
   * an initialize was ever judged (a deployment that routes every session's next request to a node that lost it).
   */
  readonly sessions: { established: number; survived: number };
  /**
   * Tool calls the clients made, and the JSON-RPC responses to them that reached them (World.callAnswers). None
   * answered means no property that judges a call's stream or result had anything to judge.
   */
  readonly calls: { made: number; answers: number };
}

/** Coverage as a person and CI read it. */
export interface CoverageReport {
  /** Covered items ÷ all items (states, transitions and action kinds together), from 0 to 100. */
  readonly percent: number;
  readonly machines: ReadonlyArray<{
    readonly machine: CoveredMachine;
    readonly states: { readonly covered: number; readonly total: number; readonly missed: readonly string[] };
    readonly transitions: { readonly covered: number; readonly total: number; readonly missed: readonly string[] };
  }>;
  readonly actions: { readonly covered: number; readonly total: number; readonly missed: readonly ActionKind[] };
  /**
   * The decision core's rules the runs reached (not in `percent`: only targets built on the core report them);
   * null when the target reported none.
   */
  readonly decisions: {
    readonly covered: number;
    /** Rules some run's configuration could decide. */
    readonly total: number;
    /** Rules some run could decide and none did. */
    readonly missed: readonly Rule[];
    /** Rules no run's configuration could decide, with why. */
    readonly outOfScope: ReadonlyArray<{ readonly rule: Rule; readonly why: string }>;
    readonly runs: number;
  } | null;
  /** Sessions established, and those that survived their second request (see {@link CoverageCounts.sessions}). */
  readonly sessions: { readonly established: number; readonly survived: number };
  /** Tool calls made, and the responses to them received (see {@link CoverageCounts.calls}). */
  readonly calls: { readonly made: number; readonly answers: number };
}

/** The rule of each built-in completed-stream policy (core/policy.ts): a policy decides its own row only. */
const POLICY_RULES: ReadonlyMap<string, Rule> = new Map([
  ['replay-tail', 'completed-replay-tail'],
  ['replay-unsent', 'completed-replay-unsent'],
  ['fresh-literal', 'completed-fresh-silent'],
  ['fresh-with-reset', 'completed-fresh-reset'],
]);
/** The completed-stream policies' rows. */
const POLICY_ROWS: ReadonlySet<Rule> = new Set(POLICY_RULES.values());

/** Rules only a 2026-07-28 request reaches, on a dual-era endpoint. */
const MODERN_RULES: readonly Rule[] = ['modern-execute', 'modern-notification'];
/** Rules only a 2026-07-28-only endpoint reaches. */
const MODERN_ONLY_RULES: readonly Rule[] = ['modern-only-method-not-allowed', 'modern-only-legacy-refused'];

/** Why a rule was out of every run's scope, for the report. */
function outOfScopeWhy(rule: Rule): string {
  if (POLICY_ROWS.has(rule)) return "another completed-stream policy's row";
  if (MODERN_RULES.includes(rule)) return 'no 2026-07-28 client in the runs (--protocol mixed has some)';
  if (MODERN_ONLY_RULES.includes(rule)) return "a 2026-07-28-only endpoint's row";
  if (rule === 'stream-limit') return "the session's stream limit is more than a run's steps can open";
  return 'a legacy row: the endpoint speaks 2026-07-28 only';
}

function machineOf(name: CoveredMachine): ModelMachine {
  return MODEL[name] as ModelMachine;
}

/** Empty counts. */
export function emptyCoverage(): CoverageCounts {
  const states = {} as Record<CoveredMachine, number[]>;
  const transitions = {} as Record<CoveredMachine, number[]>;
  for (const name of COVERED_MACHINES) {
    const size = machineOf(name).states.length;
    states[name] = new Array<number>(size).fill(0);
    transitions[name] = new Array<number>(size * size).fill(0);
  }
  return { states, transitions, actions: new Array<number>(ACTION_KINDS.length).fill(0), decisions: new Array<number>(RULES.length).fill(0), decisionsExcluded: new Array<number>(RULES.length).fill(0), decisionRuns: 0, sessions: { established: 0, survived: 0 }, calls: { made: 0, answers: 0 } };
}

/** Adds `from` into `into` (counts of several workers). */
export function mergeCoverage(into: CoverageCounts, from: CoverageCounts): void {
  for (const name of COVERED_MACHINES) {
    from.states[name].forEach((count, index) => (into.states[name][index]! += count));
    from.transitions[name].forEach((count, index) => (into.transitions[name][index]! += count));
  }
  from.actions.forEach((count, index) => (into.actions[index]! += count));
  from.decisions.forEach((count, index) => (into.decisions[index]! += count));
  from.decisionsExcluded.forEach((count, index) => (into.decisionsExcluded[index]! += count));
  into.decisionRuns += from.decisionRuns;
  into.sessions.established += from.sessions.established;
  into.sessions.survived += from.sessions.survived;
  into.calls.made += from.calls.made;
  into.calls.answers += from.calls.answers;
}

/** The transitions a machine's table has between two different states, as `from * states + to`. */
function directTransitions(machine: ModelMachine): Set<number> {
  const size = machine.states.length;
  const found = new Set<number>();
  for (let from = 0; from < size; from += 1) {
    for (let event = 0; event < machine.events.length; event += 1) {
      const to = machine.next[from * machine.events.length + event]!;
      // A self-loop (an attached connection's frame) changes nothing an observer of states can see.
      if (to >= 0 && to !== from) found.add(from * size + to);
    }
  }
  return found;
}

/**
 * States no event leaves (every entry of the row -1 or the state itself): an entity seen in one never changes again
 * (every change of an entity's state goes through the table's `step()`, which refuses what the row refuses).
 */
function absorbingStates(machine: ModelMachine): Uint8Array {
  const size = machine.states.length;
  const absorbing = new Uint8Array(size);
  for (let from = 0; from < size; from += 1) {
    let leaves = false;
    for (let event = 0; event < machine.events.length; event += 1) {
      const to = machine.next[from * machine.events.length + event]!;
      if (to >= 0 && to !== from) leaves = true;
    }
    absorbing[from] = leaves ? 0 : 1;
  }
  return absorbing;
}

/**
 * One machine's counting for the current run, by numbers only: the last state seen per entity (index = the entity's
 * index in its world list, which only grows during a run), the entities that may still change, and the counts it adds
 * to (the arrays of {@link CoverageCounts} themselves).
 */
class MachineTally {
  private readonly size: number;
  private readonly initial: number;
  /** `from * size + to` → 1 when the table has that transition directly. */
  private readonly direct: Uint8Array;
  private readonly absorbing: Uint8Array;
  /** Last state seen per entity of the current run; entities `seen.length` and up were never seen. */
  private readonly seen: number[] = [];
  /** Indices of the entities seen in a state they may still leave, in no particular order. */
  readonly live: number[] = [];

  constructor(
    machine: ModelMachine,
    private readonly states: number[],
    private readonly transitions: number[],
  ) {
    this.size = machine.states.length;
    this.initial = machine.initial;
    this.direct = new Uint8Array(this.size * this.size);
    for (const pair of directTransitions(machine)) this.direct[pair] = 1;
    this.absorbing = absorbingStates(machine);
  }

  /** Entities seen so far this run (the next unseen one's index). */
  get seenCount(): number {
    return this.seen.length;
  }

  reset(): void {
    this.seen.length = 0;
    this.live.length = 0;
  }

  /** The first sight of entity `index` (= {@link seenCount}): created in the initial state, now in `state`. */
  first(index: number, state: number): void {
    this.seen.push(state);
    this.states[this.initial]! += 1;
    if (this.absorbing[state] === 0) this.live.push(index);
    if (state === this.initial) return;
    this.states[state]! += 1;
    const pair = this.initial * this.size + state;
    if (this.direct[pair] === 1) this.transitions[pair]! += 1;
  }

  /** A later sight of entity `index`; false once it is in a state it cannot leave (drop it from {@link live}). */
  again(index: number, state: number): boolean {
    const before = this.seen[index]!;
    if (before === state) return true;
    this.seen[index] = state;
    this.states[state]! += 1;
    const pair = before * this.size + state;
    if (this.direct[pair] === 1) this.transitions[pair]! += 1;
    return this.absorbing[state] === 0;
  }

  /** A sight of the single entity 0 (the server). */
  only(state: number): void {
    if (this.seen.length === 0) this.first(0, state);
    else this.again(0, state);
  }
}

/** Drops position `at` of a list whose order does not matter. */
function dropAt(list: number[], at: number): void {
  list[at] = list[list.length - 1]!;
  list.pop();
}

/**
 * Watches the runs of one thread and adds to its counts. One per lane; `beginRun` before each run, `action` per
 * step, `observe` after each operation. An entity is read after every operation until it is in a state no event
 * leaves (a closed connection, a completed stream): the same counts as reading every entity every time, without
 * walking a run's every past connection after each of its operations.
 */
export class CoverageObserver {
  private readonly streams: MachineTally;
  private readonly sessionTally: MachineTally;
  private readonly serverTally: MachineTally;
  private readonly connectionTally: MachineTally;
  private readonly clientTally: MachineTally;
  /** Per session of the current run (index = session index): whether it has survived its second request yet. */
  private readonly survived: boolean[] = [];

  constructor(readonly counts: CoverageCounts) {
    const tally = (name: CoveredMachine) => new MachineTally(machineOf(name), counts.states[name], counts.transitions[name]);
    this.streams = tally('stream');
    this.sessionTally = tally('session');
    this.serverTally = tally('server');
    this.connectionTally = tally('connection');
    this.clientTally = tally('client');
  }

  /** Whether the current run's target reported its decisions (counted once per run). */
  private decisionsReported = false;
  /** The current run's decision configuration and whether it had a 2026-07-28 client, judged when the run ends. */
  private decisionConfig: DecisionConfig | null = null;
  private modernClients = false;
  private steps = 0;
  /** The current run's world, once observed: its calls and their answers are counted when the run ends. */
  private world: World | null = null;

  /** Forgets the entities of the previous run. */
  beginRun(): void {
    this.endRun();
    this.streams.reset();
    this.sessionTally.reset();
    this.serverTally.reset();
    this.connectionTally.reset();
    this.clientTally.reset();
    this.decisionsReported = false;
    this.survived.length = 0;
  }

  /**
   * Counts the rules the run that ended could not decide (called by `beginRun`, and by `finish` after the last run), and
   * its calls. Called by a run that goes on past the violation that ends the simulation a search counts
   * (sim/every-violation.ts), it ends the count there: nothing of the run is observed after.
   */
  endRun(): void {
    const world = this.world;
    this.world = null;
    if (world !== null) {
      this.counts.calls.made += world.calls.length;
      this.counts.calls.answers += world.callAnswers;
    }
    const config = this.decisionConfig;
    this.decisionConfig = null;
    if (config === null) return;
    const excluded = this.counts.decisionsExcluded;
    const policyRule = POLICY_RULES.get(config.completedStreamPolicy);
    RULES.forEach((rule, index) => {
      const out = config.modernOnly
        ? !MODERN_RULES.includes(rule) && !MODERN_ONLY_RULES.includes(rule) && rule !== 'stream-limit'
        : MODERN_ONLY_RULES.includes(rule) ||
          (MODERN_RULES.includes(rule) && !this.modernClients) ||
          (policyRule !== undefined && POLICY_ROWS.has(rule) && rule !== policyRule) ||
          // Each step opens at most one stream: a run of fewer steps than the limit never reaches it.
          (rule === 'stream-limit' && this.steps < config.streamsPerSessionMax);
      if (out) excluded[index]! += 1;
    });
    this.modernClients = false;
    this.steps = 0;
  }

  /** Ends the last run's count; the counts are complete after it. */
  finish(): void {
    this.endRun();
  }

  /** Counts one step's action kind (an index into ACTION_KINDS). */
  action(kind: number): void {
    this.counts.actions[kind]! += 1;
    this.steps += 1;
  }

  /** Reads the state of every entity that may have changed since the last operation. */
  observe(world: World): void {
    this.world = world;
    // Read before a restart replaces the instance too (coverage observes before every operation), so none is lost.
    const server = world.server;
    if (server?.takeDecisions !== undefined) {
      server.takeDecisions(this.counts.decisions);
      if (!this.decisionsReported) {
        this.decisionsReported = true;
        this.counts.decisionRuns += 1;
        this.decisionConfig = server.decisionConfig?.() ?? null;
        this.modernClients = world.clients.some(isModernClient);
      }
    }
    this.serverTally.only(world.serverState);
    const { clients, sessions, views, connections } = world;
    // Clients are few and never leave the list: each is read every time.
    const clientTally = this.clientTally;
    for (let index = 0; index < clients.length; index += 1) {
      if (index < clientTally.seenCount) clientTally.again(index, clients[index]!.state);
      else clientTally.first(index, clients[index]!.state);
    }
    const sessionTally = this.sessionTally;
    const sessionsLive = sessionTally.live;
    for (let at = 0; at < sessionsLive.length; ) {
      const index = sessionsLive[at]!;
      if (sessionTally.again(index, sessions[index]!.state)) at += 1;
      else dropAt(sessionsLive, at);
    }
    for (let index = sessionTally.seenCount; index < sessions.length; index += 1) {
      // A new session: established (its survival is judged by the connections below).
      this.survived[index] = false;
      this.counts.sessions.established += 1;
      sessionTally.first(index, sessions[index]!.state);
    }
    const streams = this.streams;
    const streamsLive = streams.live;
    for (let at = 0; at < streamsLive.length; ) {
      const index = streamsLive[at]!;
      if (streams.again(index, views[index]!.stream)) at += 1;
      else dropAt(streamsLive, at);
    }
    for (let index = streams.seenCount; index < views.length; index += 1) streams.first(index, views[index]!.stream);
    const connectionTally = this.connectionTally;
    const connectionsLive = connectionTally.live;
    for (let at = 0; at < connectionsLive.length; ) {
      const connection = connections[connectionsLive[at]!]!;
      this.survival(connection);
      if (connectionTally.again(connection.index, connection.state)) at += 1;
      else dropAt(connectionsLive, at);
    }
    for (let index = connectionTally.seenCount; index < connections.length; index += 1) {
      const connection = connections[index]!;
      this.survival(connection);
      connectionTally.first(index, connection.state);
    }
  }

  /**
   * A request after the initialize, answered (status set) by a server that knew the session (not 404): the session
   * survived. A connection's status is set once, with the step out of `pending`, so a connection in a state it cannot
   * leave has nothing more to say here.
   */
  private survival(connection: SimConnection): void {
    const session = connection.session;
    if (session === null || connection.purpose === 'initialize' || connection.status === 0 || connection.status === 404) return;
    if (this.survived[session.index] === false) {
      this.survived[session.index] = true;
      this.counts.sessions.survived += 1;
    }
  }
}

/** What the counts cover, out of everything the model and the action kinds offer. */
export function coverageReport(counts: CoverageCounts): CoverageReport {
  let covered = 0;
  let total = 0;
  const machines = COVERED_MACHINES.map((name) => {
    const machine = machineOf(name);
    const size = machine.states.length;
    const statesMissed = machine.states.filter((_, index) => counts.states[name][index] === 0);
    const pairs = [...directTransitions(machine)].sort((left, right) => left - right);
    const transitionsMissed = pairs
      .filter((pair) => counts.transitions[name][pair] === 0)
      .map((pair) => `${machine.states[Math.floor(pair / size)]} → ${machine.states[pair % size]}`);
    covered += size - statesMissed.length + pairs.length - transitionsMissed.length;
    total += size + pairs.length;
    return {
      machine: name,
      states: { covered: size - statesMissed.length, total: size, missed: statesMissed },
      transitions: { covered: pairs.length - transitionsMissed.length, total: pairs.length, missed: transitionsMissed },
    };
  });
  const actionsMissed = ACTION_KINDS.filter((_, index) => counts.actions[index] === 0);
  covered += ACTION_KINDS.length - actionsMissed.length;
  total += ACTION_KINDS.length;
  // A rule is out of scope when every run's configuration ruled it out and none decided it anyway.
  const outOfScope = RULES.filter((_, index) => counts.decisions[index] === 0 && counts.decisionRuns > 0 && counts.decisionsExcluded[index] === counts.decisionRuns);
  const rulesMissed = RULES.filter((rule, index) => counts.decisions[index] === 0 && !outOfScope.includes(rule));
  const rulesInScope = RULES.length - outOfScope.length;
  return {
    percent: total === 0 ? 100 : Math.floor((covered / total) * 1000) / 10,
    machines,
    actions: { covered: ACTION_KINDS.length - actionsMissed.length, total: ACTION_KINDS.length, missed: actionsMissed },
    decisions:
      counts.decisionRuns === 0
        ? null
        : {
            covered: rulesInScope - rulesMissed.length,
            total: rulesInScope,
            missed: rulesMissed,
            outOfScope: outOfScope.map((rule) => ({ rule, why: outOfScopeWhy(rule) })),
            runs: counts.decisionRuns,
          },
    sessions: { ...counts.sessions },
    calls: { ...counts.calls },
  };
}

/** The report as lines for a terminal. */
export function renderCoverage(report: CoverageReport): string[] {
  const lines = [`coverage ${report.percent}% (machine states, transitions between states, action kinds)`];
  for (const { machine, states, transitions } of report.machines) {
    const missed = [...states.missed.map((state) => `state ${state}`), ...transitions.missed];
    lines.push(`  ${machine.padEnd(10)} states ${states.covered}/${states.total}, transitions ${transitions.covered}/${transitions.total}${missed.length > 0 ? `; never: ${missed.join(', ')}` : ''}`);
  }
  const { actions } = report;
  lines.push(`  actions    ${actions.covered}/${actions.total} kinds${actions.missed.length > 0 ? `; never: ${actions.missed.join(', ')}` : ''}`);
  const { decisions } = report;
  lines.push(
    decisions === null
      ? '  decisions  not reported (the target is not built on the decision core)'
      : `  decisions  ${decisions.covered}/${decisions.total} rules of the decision core${decisions.missed.length > 0 ? `; never: ${decisions.missed.join(', ')}` : ''}`,
  );
  if (decisions !== null && decisions.outOfScope.length > 0) {
    const byWhy = new Map<string, Rule[]>();
    for (const { rule, why } of decisions.outOfScope) byWhy.set(why, [...(byWhy.get(why) ?? []), rule]);
    for (const [why, rules] of byWhy) lines.push(`             out of scope (${why}): ${rules.join(', ')}`);
  }
  const { established, survived } = report.sessions;
  // "Outlived the initialize": a later request of the session was answered by a server that knew it (not 404).
  if (established > 0) lines.push(`  sessions   ${survived} of ${established} outlived their initialize (a later request answered other than 404)`);
  const { made, answers } = report.calls;
  lines.push(`  calls      ${made} tool ${made === 1 ? 'call' : 'calls'} made, ${answers} ${answers === 1 ? 'response' : 'responses'} to them received (a re-sent call's included)`);
  return lines;
}
