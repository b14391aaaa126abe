// One contract run: a fresh world (a fresh instance of the store's module, the SDK's clock and randomness and
// node:crypto's randomUUID and randomBytes patched from the run's seed), operations picked by a choice source, a final drain, then the judge. A run is a function of
// (store, config, choices), as long as the store itself is deterministic given the patched globals.

import { type Prng, createPrng } from '../sim/prng.ts';
import { patchSdkGlobals } from '../targets/sdk/random.ts';
import { patchNodeCrypto } from './random.ts';
import type { StoreSource, StoreWorld } from '../targets/module/module.target.ts';
import { CONTRACT_ACTION_KINDS, type ContractAction, type ContractActionKind, describeContractAction, drain, enumerateContractActions, openIncarnation, performContractAction } from './contract-actions.ts';
import { judgeContract } from './contract-judge.ts';
import type { ContractConfig, ContractStep, ContractViolation, ContractWorld } from './contract-world.ts';
import { type KeyedChoice, pickKeyed } from './shrink-sequence.ts';

/** Where each operation comes from: an index into the enabled operations, or null to stop. */
export interface ContractChoiceSource {
  choose(actions: readonly ContractAction[]): number | null;
}

/** The outcome of one contract run. */
export interface ContractRunResult {
  /** Every violation, in property order. */
  readonly violations: readonly ContractViolation[];
  /** The choices used, each reduced to an index into that step's enabled operations. */
  readonly choices: readonly number[];
  /** The same steps with the key of each operation picked, for shrinking. */
  readonly taken: readonly KeyedChoice[];
  /** Present when the run was recorded; the last step is the final drain. */
  readonly steps: readonly ContractStep[] | null;
  /** What went wrong ending the run (an onRunEnd hook or the module's close() threw or hung), one line each. */
  readonly teardown: readonly string[];
  /** Waits that ran out the call timeout: at most 1 (the first ends the run), whatever the store does. */
  readonly timeoutsWaited: number;
}

/** Replays a choice sequence; each choice is reduced modulo the enabled operations, so any sequence is a valid run. */
export function contractSequence(choices: readonly number[]): ContractChoiceSource {
  let next = 0;
  return {
    choose: (actions) => {
      if (next >= choices.length) return null;
      const choice = choices[next]!;
      next += 1;
      return choice % actions.length;
    },
  };
}

/** The key of an operation: its kind and operands, stable when earlier steps are removed. */
export function contractActionKey(action: ContractAction): string {
  return `${action.kind}:${action.a}:${action.b}`;
}

/** Replays keyed steps: each picks the operation with its key when enabled, else its index (see shrink-sequence.ts). */
export function contractKeyed(steps: readonly KeyedChoice[]): ContractChoiceSource {
  let next = 0;
  return {
    choose: (actions) => {
      if (next >= steps.length) return null;
      const step = steps[next]!;
      next += 1;
      return pickKeyed(step, actions.length, (index) => contractActionKey(actions[index]!));
    },
  };
}

/**
 * Base weights per kind. Stores come often, so streams grow past the window and replays have several events to
 * send; own resumptions more often than the attacks, which need one occurrence each to be judged.
 */
const BASE_WEIGHTS: Readonly<Record<ContractActionKind, number>> = {
  openSession: 0.6,
  reuseSessionId: 0.4,
  openPostStream: 1,
  store: 4,
  respond: 0.5,
  replayOwn: 2,
  replayForeign: 0.5,
  replayPreRestart: 0.5,
  replayForged: 0.5,
  replayMalformed: 0.3,
  awaitStore: 1.5,
  awaitReplay: 1,
  releaseSend: 2,
  restart: 0.3,
};

/** Kinds a swarm run may switch off or scale; the others keep their base weight so a run can always progress. */
const SWARM_KINDS: readonly ContractActionKind[] = ['replayForeign', 'replayPreRestart', 'replayForged', 'replayMalformed', 'awaitStore', 'awaitReplay', 'releaseSend', 'restart', 'respond'];

function kindWeights(prng: Prng): Map<ContractActionKind, number> {
  const weights = new Map<ContractActionKind, number>(CONTRACT_ACTION_KINDS.map((kind) => [kind, BASE_WEIGHTS[kind]]));
  // Half the runs are swarm runs: some kinds switched off, others made rare or frequent.
  if (prng.float() < 0.5) {
    for (const kind of SWARM_KINDS) weights.set(kind, prng.float() < 0.3 ? 0 : BASE_WEIGHTS[kind] * (0.25 + prng.float() * 1.75));
  }
  return weights;
}

/** A seeded random walk: a kind by weight among the enabled ones, then one of its operations uniformly. */
export function contractWalk(seed: string, stepsMax: number): ContractChoiceSource {
  const prng = createPrng(`${seed}/contract-walk`);
  const weights = kindWeights(prng);
  // "Stop here" is a draw too, so short runs are as likely as long ones.
  const length = 1 + prng.below(stepsMax);
  let taken = 0;
  return {
    choose: (actions) => {
      if (taken >= length) return null;
      taken += 1;
      const byKind = new Map<ContractActionKind, number[]>();
      actions.forEach((action, index) => {
        const indexes = byKind.get(action.kind) ?? [];
        indexes.push(index);
        byKind.set(action.kind, indexes);
      });
      const kinds = [...byKind.keys()];
      let total = 0;
      for (const kind of kinds) total += weights.get(kind)!;
      let kind = kinds[0]!;
      if (total > 0) {
        let pick = prng.float() * total;
        for (const candidate of kinds) {
          pick -= weights.get(candidate)!;
          kind = candidate;
          if (pick < 0) break;
        }
      } else {
        kind = kinds[prng.below(kinds.length)]!;
      }
      const indexes = byKind.get(kind)!;
      return indexes[prng.below(indexes.length)]!;
    },
  };
}

/** Runs the contract once against the store from `source`. */
export async function runContract(
  source: StoreSource,
  config: ContractConfig,
  choices: ContractChoiceSource,
  options: { readonly record?: boolean } = {},
): Promise<ContractRunResult> {
  const record = options.record === true;
  const globals = patchSdkGlobals(config.seed);
  const crypto = patchNodeCrypto(config.seed);
  let storeWorld: StoreWorld | null = null;
  try {
    storeWorld = await source.openWorld(config.seed);
    const world: ContractWorld = {
      config,
      factory: storeWorld.factory,
      onRunEnd: storeWorld.onRunEnd,
      where: source.ref === null ? 'the factory' : source.ref.path,
      prng: createPrng(`${config.seed}/contract`),
      epoch: 1,
      restarts: 0,
      sharedStore: null,
      sessions: [],
      streams: [],
      storeCalls: [],
      replays: [],
      eventsById: new Map(),
      callsByOrigin: new Map(),
      resolutions: 0,
      tick: 0,
      activity: 0,
      step: 0,
      timeoutsWaited: 0,
      notes: null,
    };
    const steps: ContractStep[] | null = record ? [] : null;
    const used: number[] = [];
    const taken: KeyedChoice[] = [];
    const opening: string[] = [];
    world.notes = record ? opening : null;
    await openIncarnation(world);
    // A wait that ran out ends the run: its verdict (a call that never settled) is known.
    for (; world.step < config.stepsMax && world.timeoutsWaited === 0; world.step += 1) {
      const actions = enumerateContractActions(world);
      if (actions.length === 0) break;
      const choice = choices.choose(actions);
      if (choice === null) break;
      used.push(choice);
      const action = actions[choice]!;
      taken.push({ choice, key: contractActionKey(action) });
      if (steps !== null) {
        const notes = world.step === 0 ? [...opening] : [];
        steps.push({ choice, action: describeContractAction(world, action), notes });
        world.notes = notes;
      }
      // Only operations that yield return a pending promise: consecutive starts stay concurrent.
      const pending = performContractAction(world, action);
      if (pending !== null) await pending;
    }
    if (steps !== null) {
      const notes: string[] = [];
      steps.push({ choice: -1, action: 'every held send returns and every call is awaited (end of run)', notes });
      world.notes = notes;
    }
    await drain(world);
    world.notes = null;
    const violations = judgeContract(world);
    const opened = storeWorld;
    storeWorld = null;
    const teardown = await opened.end(config.callTimeoutMs);
    return { violations, choices: used, taken, steps, teardown, timeoutsWaited: world.timeoutsWaited };
  } finally {
    try {
      if (storeWorld !== null) await storeWorld.end(config.callTimeoutMs);
    } finally {
      crypto.restore();
      globals.restore();
    }
  }
}
