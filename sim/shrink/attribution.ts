// Which component of an assembled target (an SDK target: the package's transport, an event store, a router, the
// harness) a finding is charged to, decided from evidence: its counterexample is replayed, step for step, on the same
// target with the store replaced by a correct one (resumecheck/event-store), with the router replaced by the
// specification's routing, and with both. A finding that the same steps no longer produce with a correct store is the
// store's; with a correct router, the router's; that both replaced still produce, the transport's (the package). A
// finding the simulated client triggered by breaking a requestor's rule first is the harness's (its client's), and
// fails nothing. Nothing here is a table of findings: every verdict is a replay's.

import type { PropertyName } from '../../properties/names.ts';
import { brokenRule } from '../../properties/client-fault.ts';
import type { ComponentRole, ReplaceableRole, Target } from '../../targets/target.ts';
import { sequenceChoices } from '../choices.ts';
import type { SimConfig } from '../config.ts';
import { runSimulation } from '../engine.ts';
import type { Violation } from '../world.ts';
import { levelOf } from '../levels/level.ts';
import { faultActions } from '../levels/vocabulary.ts';

/** What replaying a counterexample with some components replaced gave. */
export type ReplacementOutcome =
  /** The same fault steps, and the property holds: what was replaced produced the finding. */
  | 'holds'
  /** The same fault steps up to a violation of the same property. */
  | 'violated'
  /** The replacement changed what could happen: the steps differ, so this replay says nothing. */
  | 'diverged';

/** One replay of the counterexample. */
export interface ReplacementCheck {
  readonly replaced: readonly ReplaceableRole[];
  readonly outcome: ReplacementOutcome;
}

/** Whom a finding is charged to, and why. Plain data (it crosses from worker threads, and goes into JSON). */
export interface Attribution {
  /** The components charged, in COMPONENT_ROLES order; empty when the replays could not tell. */
  readonly charged: readonly ComponentRole[];
  /** The charged components as the target names them (`store: 2.x repository example InMemoryEventStore …`). */
  readonly component: string;
  /** One sentence: the replays that decided it. */
  readonly evidence: string;
  readonly checks: readonly ReplacementCheck[];
}

/** What a finding is, for attribution: the run that produced it. */
export interface FindingRun {
  readonly config: SimConfig;
  readonly choices: readonly number[];
  readonly verdict: Violation;
}

/** The fault-phase actions of a run of `choices`, and the property it violated (checking `property` alone). */
async function replay(target: Target, run: FindingRun, property: PropertyName): Promise<{ readonly actions: readonly string[]; readonly violated: boolean }> {
  const result = await runSimulation(target, run.config, sequenceChoices(run.choices), { record: true, properties: [property] });
  const actions = faultActions(result.trace, levelOf(target)?.name);
  return { actions, violated: result.violation?.property === property };
}

/** True when `replayed` took the steps `original` took, up to where the shorter one stopped at a violation. */
function sameSteps(original: readonly string[], replayed: readonly string[], replayedViolated: boolean): boolean {
  if (replayedViolated) {
    // It may stop at the violation sooner (a safety violation ends the run): compare what it did.
    return replayed.length <= original.length && replayed.every((action, index) => action === original[index]);
  }
  return replayed.length === original.length && replayed.every((action, index) => action === original[index]);
}

/** How a target names the components charged: each role with its description, and the transport with its version. */
export function componentText(target: Target, charged: readonly ComponentRole[]): string {
  const components = target.components;
  if (components === undefined || charged.length === 0) return 'undetermined';
  return charged
    .map((role) => {
      if (role === 'transport') return `transport: ${target.sdk ?? components.transport}`;
      return `${role}: ${components[role]}`;
    })
    .join('; ');
}

function attribution(target: Target, charged: readonly ComponentRole[], evidence: string, checks: readonly ReplacementCheck[]): Attribution {
  return { charged, component: componentText(target, charged), evidence, checks };
}

/** `target` with every role of `roles` replaced by a correct one, or null when one of them cannot be. */
function replacedAll(target: Target, roles: readonly ReplaceableRole[]): Target | null {
  let current: Target | null = target;
  for (const role of roles) current = current?.replaced?.(role) ?? null;
  return current;
}

/**
 * Charges `run`'s finding on `target` to a component, from replays (see the file's head); null when the target is
 * not assembled from components (it is one system: the finding is simply its own).
 */
export async function attributeFinding(target: Target, run: FindingRun): Promise<Attribution | null> {
  if (target.components === undefined || target.replaced === undefined) return null;
  const property = run.verdict.property;
  if (run.verdict.triggeredBy !== undefined) {
    const fault = run.verdict.triggeredBy;
    return attribution(target, ['harness'], `its simulated client broke a requestor's ${brokenRule(fault).keyword} first, at step ${fault.step + 1}: triggered by the harness's own client, it fails nothing`, []);
  }
  const original = await replay(target, run, property);
  const checks: ReplacementCheck[] = [];
  if (!original.violated) return attribution(target, [], `its steps, replayed on ${target.name} itself, no longer violate ${property}: nothing to attribute`, checks);
  const check = async (roles: readonly ReplaceableRole[]): Promise<ReplacementOutcome | null> => {
    const variant = replacedAll(target, roles);
    if (variant === null) return null;
    const replayed = await replay(variant, run, property);
    const outcome: ReplacementOutcome = !sameSteps(original.actions, replayed.actions, replayed.violated) ? 'diverged' : replayed.violated ? 'violated' : 'holds';
    checks.push({ replaced: roles, outcome });
    return outcome;
  };
  const steps = `the same ${original.actions.length} ${original.actions.length === 1 ? 'step' : 'steps'}`;
  const store = await check(['store']);
  const router = await check(['router']);
  if (store === null && router === null) {
    return attribution(target, ['transport'], `the target has no store or router of its own to replace: the package's endpoint serves every request`, checks);
  }
  if (store === 'holds' && router === 'holds') {
    return attribution(target, ['store', 'router'], `${steps} hold with either the store or the router replaced by a correct one: it takes both`, checks);
  }
  if (store === 'holds') return attribution(target, ['store'], `${steps} hold with resumecheck/event-store in place of the store, the transport and router unchanged`, checks);
  if (router === 'holds') return attribution(target, ['router'], `${steps} hold with the specification's routing in place of the router, the transport and store unchanged`, checks);
  const both = store !== null && router !== null ? await check(['store', 'router']) : null;
  if (both === 'holds') {
    return attribution(target, ['store', 'router'], `${steps} hold only with both the store and the router replaced by correct ones: each produces it`, checks);
  }
  const persisted = [store, router, both].filter((outcome) => outcome !== null);
  if (persisted.length > 0 && persisted.every((outcome) => outcome === 'violated')) {
    const replaced = both !== null ? 'both the store and the router' : store !== null ? 'the store' : 'the router';
    return attribution(target, ['transport'], `${steps} still violate it with ${replaced} replaced by correct ones: the package's transport, as the harness drives it`, checks);
  }
  return attribution(target, [], 'replacing the store or the router changed the steps before the violation, so the replays cannot tell which component produced it', checks);
}
