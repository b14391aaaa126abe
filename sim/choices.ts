// Choice sources: a fixed sequence (replay, fast-check, shrinking) or a seeded random walk with swarm weights.

import { ACTION_KINDS, FAULT_KINDS, NODE_FAULT_KINDS } from './config.ts';
import type { ActionList } from './actions.ts';
import type { ChoiceSource } from './engine.ts';
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
 * Swarm weights: each fault kind is switched on with probability 1/2 and given a random weight; the kinds
 * that are not faults keep weight 1. Deep bugs need some faults to be rare and others frequent.
 */
export function swarmWeights(prng: Prng): KindWeights {
  const weights = new Float64Array(UNIFORM_WEIGHTS);
  for (const kind of FAULT_KIND_NUMBERS) weights[kind] = prng.float() < 0.5 ? 0 : 0.25 + prng.float() * 1.75;
  return weights;
}

/** The walk of one seed: its weights (uniform or swarm, half each) and its length. */
export interface WalkPlan {
  readonly weights: KindWeights;
  readonly swarm: boolean;
  readonly length: number;
  readonly prng: Prng;
}

/** Plans the walk of one seed: the same seed always gives the same plan and the same choices. */
export function planWalk(seed: string, stepsMax: number): WalkPlan {
  const prng = createPrng(`${seed}/walk`);
  const swarm = prng.float() < 0.5;
  const weights = swarm ? swarmWeights(prng) : UNIFORM_WEIGHTS;
  if (swarm) {
    // Node faults draw from their own stream, so every other draw of the walk is what it was before they existed.
    const nodePrng = createPrng(`${seed}/walk/nodes`);
    for (const kind of NODE_FAULT_KINDS) weights[ACTION_KINDS.indexOf(kind)] = nodePrng.float() < 0.5 ? 0 : 0.25 + nodePrng.float() * 1.75;
  }
  // "Stop here" is a draw too: the walk's length is chosen, so short runs are as likely as long ones.
  const length = 1 + prng.below(stepsMax);
  return { weights, swarm, length, prng };
}

/** A random walk: each step picks an enabled action with probability proportional to its kind's weight. */
export function walkChoices(plan: WalkPlan): ChoiceSource {
  const kindWeights = plan.weights;
  let taken = 0;
  return {
    choose(_world, list: ActionList) {
      if (taken >= plan.length) return null;
      taken += 1;
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
