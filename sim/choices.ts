// Choice sources: a fixed sequence (replay, fast-check, shrinking) or a seeded random walk with swarm weights.

import { ACTION_KINDS, type ActionKind, FAULT_KINDS, NODE_FAULT_KINDS, VERSION_FAULT_KINDS } from './config.ts';
import { TOOL_NAMES } from '../targets/target.ts';
import type { ActionList } from './actions.ts';
import type { ChoiceSource } from './engine.ts';
import type { Level, WalkShape } from './levels/level.ts';
import { type Prng, createPrng } from './prng.ts';

/** Replays a choice sequence; each choice is reduced modulo the enabled actions, so any sequence is a valid run. */
export function sequenceChoices(choices: readonly number[]): ChoiceSource {
  let next = 0;
  return {
    choose(_world, list) {
      if (next >= choices.length) return null;
      const choice = choices[next]!;
      next += 1;
      return choice % list.count;
    },
  };
}

/** Weights per action kind for a random walk, indexed by the kind's number (ACTION_KINDS order); 0 switches one off. */
export type KindWeights = Float64Array;

/** Every kind with weight 1. Shared: never written to. */
export const UNIFORM_WEIGHTS: KindWeights = new Float64Array(ACTION_KINDS.length).fill(1);

const FAULT_KIND_NUMBERS: readonly number[] = FAULT_KINDS.map((kind) => ACTION_KINDS.indexOf(kind));

/**
 * The server level's base weights: 1 for every kind but callTogether, which is offered once per pair of clients where
 * a client's call is offered once per tool: it weighs as a client's calls do together. It is enabled only on runs
 * whose tools answer inside their request, so no other run draws anything other than it did. Shared: never written to.
 */
const SERVER_BASE_WEIGHTS: KindWeights = Float64Array.from(ACTION_KINDS, (kind) => (kind === 'callTogether' ? TOOL_NAMES.length : 1));

/** Fault kinds a swarm walk weighs from a stream of their own, by the stream's name: what else it draws stays as it was. */
const OWN_STREAM_FAULTS: readonly (readonly [string, readonly ActionKind[]])[] = [
  ['nodes', NODE_FAULT_KINDS],
  ['versions', VERSION_FAULT_KINDS],
];

/**
 * Swarm weights: each fault kind is switched on with probability 1/2 and given a random multiple (1/4 to 2) of its base
 * weight; the kinds that are not faults keep their base weight (1 unless a level says otherwise). Deep bugs need some
 * faults to be rare and others frequent.
 */
export function swarmWeights(prng: Prng, faultKinds: readonly number[] = FAULT_KIND_NUMBERS, base: KindWeights = UNIFORM_WEIGHTS): KindWeights {
  const weights = new Float64Array(base);
  for (const kind of faultKinds) weights[kind] = prng.float() < 0.5 ? 0 : base[kind]! * (0.25 + prng.float() * 1.75);
  return weights;
}

/** The walk of one seed: its weights (uniform or swarm, half each) and its length. */
export interface WalkPlan {
  readonly weights: KindWeights;
  readonly swarm: boolean;
  readonly length: number;
  readonly prng: Prng;
  /** Each step picks a kind among the enabled ones by weight, then one of its actions uniformly (WalkShape.byKind). */
  readonly byKind?: boolean;
}

/**
 * Plans the walk of one seed: the same seed always gives the same plan and the same choices. `faultKinds` are the
 * kind numbers swarm walks may switch off (the server level's by default; another level names its own), and `shape`
 * a level's base weights and way of picking (Level.walk).
 */
export function planWalk(seed: string, stepsMax: number, faultKinds: readonly number[] = FAULT_KIND_NUMBERS, shape: WalkShape = {}): WalkPlan {
  const prng = createPrng(`${seed}/walk`);
  const swarm = prng.float() < 0.5;
  const base = shape.baseWeights !== undefined ? Float64Array.from(shape.baseWeights) : faultKinds === FAULT_KIND_NUMBERS ? SERVER_BASE_WEIGHTS : UNIFORM_WEIGHTS;
  const weights = swarm ? swarmWeights(prng, faultKinds, base) : base;
  if (swarm && faultKinds === FAULT_KIND_NUMBERS) {
    // Node faults and the version fault (the server level's) draw from their own streams, so every other draw of the
    // walk is what it was before they existed.
    for (const [stream, kinds] of OWN_STREAM_FAULTS) {
      const ownPrng = createPrng(`${seed}/walk/${stream}`);
      for (const kind of kinds) weights[ACTION_KINDS.indexOf(kind)] = ownPrng.float() < 0.5 ? 0 : 0.25 + ownPrng.float() * 1.75;
    }
  }
  // "Stop here" is a draw too: the walk's length is chosen, so short runs are as likely as long ones.
  const length = 1 + prng.below(stepsMax);
  return { weights, swarm, length, prng, ...(shape.byKind === true ? { byKind: true } : {}) };
}

/**
 * The random walk of a run of `config` at `level` (absent: the server level): its fault kinds and its weights, the
 * walk every search makes (fuzz lanes, the matrix, check-store's phases).
 */
export function levelWalk(config: { readonly seed: string; readonly stepsMax: number }, level: Pick<Level, 'faultKinds' | 'walk'> | undefined): ChoiceSource {
  return walkChoices(planWalk(config.seed, config.stepsMax, level?.faultKinds, level?.walk));
}

/** A kind among those enabled by weight (uniformly when they all weigh nothing), then one of its actions uniformly. */
function chooseByKind(plan: WalkPlan, list: ActionList): number {
  const kindWeights = plan.weights;
  // The kinds enabled, in the order the list first names them.
  const kinds: number[] = [];
  let total = 0;
  for (let index = 0; index < list.count; index += 1) {
    const kind = list.kind[index]!;
    if (kinds.includes(kind)) continue;
    kinds.push(kind);
    total += kindWeights[kind]!;
  }
  let chosen = kinds[0]!;
  if (total > 0) {
    let pick = plan.prng.float() * total;
    for (const kind of kinds) {
      pick -= kindWeights[kind]!;
      chosen = kind;
      if (pick < 0) break;
    }
  } else {
    chosen = kinds[plan.prng.below(kinds.length)]!;
  }
  let count = 0;
  for (let index = 0; index < list.count; index += 1) if (list.kind[index] === chosen) count += 1;
  let nth = plan.prng.below(count);
  for (let index = 0; index < list.count; index += 1) {
    if (list.kind[index] !== chosen) continue;
    if (nth === 0) return index;
    nth -= 1;
  }
  throw new Error('assertion: the kind chosen has no enabled action');
}

/**
 * A random walk: each step picks an enabled action with probability proportional to its kind's weight, or (a plan
 * `byKind`) a kind by weight and then one of its actions.
 */
export function walkChoices(plan: WalkPlan): ChoiceSource {
  const kindWeights = plan.weights;
  let taken = 0;
  return {
    choose(_world, list: ActionList) {
      if (taken >= plan.length) return null;
      taken += 1;
      if (plan.byKind === true) return chooseByKind(plan, list);
      let total = 0;
      for (let index = 0; index < list.count; index += 1) total += kindWeights[list.kind[index]!]!;
      if (total <= 0) return plan.prng.below(list.count);
      let pick = plan.prng.float() * total;
      for (let index = 0; index < list.count; index += 1) {
        pick -= kindWeights[list.kind[index]!]!;
        if (pick < 0) return index;
      }
      return list.count - 1;
    },
  };
}

/** An action as a level lists it: its kind and operands. */
export interface ActionKey {
  readonly kind: number;
  readonly a: number;
  readonly b: number;
}

/** A choice source that also records each choice it made and the action it picked, as the run took them. */
export interface RecordedChoices {
  readonly source: ChoiceSource;
  /** The choices made, each an index into that step's enabled actions. */
  readonly choices: readonly number[];
  readonly actions: readonly ActionKey[];
}

/** Records what `inner` chooses: to drive a second target through the same actions (followActions), or to know them. */
export function recordChoices(inner: ChoiceSource): RecordedChoices {
  const choices: number[] = [];
  const actions: ActionKey[] = [];
  return {
    choices,
    actions,
    source: {
      choose(world, list) {
        const choice = inner.choose(world, list);
        if (choice !== null) {
          choices.push(choice);
          actions.push({ kind: list.kind[choice]!, a: list.a[choice]!, b: list.b[choice]! });
        }
        return choice;
      },
    },
  };
}

/** Takes `actions` one a step, the same kind and operands each; `diverged` once one was not enabled (the run then stops). */
export interface FollowedActions extends ChoiceSource {
  readonly diverged: boolean;
  /** The actions taken so far. */
  readonly taken: number;
}

/**
 * The same scenario on another target: each step takes the enabled action with the recorded kind and operands, and
 * the fault phase ends at the first that is not enabled (not merely the same choice numbers, which name other actions
 * once two targets answer differently).
 */
export function followActions(actions: readonly ActionKey[]): FollowedActions {
  let next = 0;
  let diverged = false;
  return {
    get diverged() {
      return diverged;
    },
    get taken() {
      return diverged ? next - 1 : next;
    },
    choose(_world, list) {
      if (diverged || next >= actions.length) return null;
      const wanted = actions[next]!;
      next += 1;
      for (let index = 0; index < list.count; index += 1) {
        if (list.kind[index] === wanted.kind && list.a[index] === wanted.a && list.b[index] === wanted.b) return index;
      }
      diverged = true;
      return null;
    },
  };
}
