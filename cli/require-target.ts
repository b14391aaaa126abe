// The target a command's flags name, through the one resolver (targets/resolve-target.ts): `--target NAME` in any of
// its forms, `--nodes N --balancer B --store-lag L` deploying it, or `--url` / `--serve` (cli/wire-options.ts). This
// file only reads flags and turns the resolver's errors into bad input (one line, exit 2).

import type { LevelName } from '../sim/levels/level.ts';
import type { BalancerName } from '../targets/multi-node/balancer.ts';
import { type TargetDescription, TargetResolutionError, deployedDescription, describeTargetName, resolveTarget, resolveTargetAtLevel } from '../targets/resolve-target.ts';
import type { Target } from '../targets/target.ts';
import { NODES_MAX, STORE_LAG_MAX } from '../targets/multi-node/topology.ts';
import type { WireTarget } from '../targets/wire/wire.target.ts';
import type { ParsedArgs } from './command-spec.ts';
import { UsageError, parseWhole } from './usage-error.ts';
import { wireDescriptionFromFlags } from './wire-options.ts';

/**
 * The target `name` stands for (any form `--target` takes, as traces record it), at the level a trace records (absent:
 * the server level); an unknown or missing name, or one that cannot run at that level, is bad input.
 */
export async function requireTarget(name: string | undefined, level?: LevelName): Promise<Target> {
  if (name === undefined) throw new UsageError('--target is required; `resumecheck targets` lists them');
  return asUsage(async () => resolveTargetAtLevel(await describeTargetName(name), level));
}

/**
 * The description fuzz's flags give: `--url`/`--serve`, or `--target` deployed by `--nodes`/`--balancer`/`--store-lag`
 * when given. Every flag mistake is reported here, before anything is loaded.
 */
export async function describeTargetFlags(values: ParsedArgs['values']): Promise<TargetDescription> {
  const wire = wireDescriptionFromFlags(values);
  const deployment = values['nodes'] !== undefined || values['balancer'] !== undefined || values['store-lag'] !== undefined;
  if (wire !== null) {
    // `--serve-node "CMD" --nodes N --balancer B` starts the nodes itself; any other server over the wire is one black box.
    const nodes = wire.form === 'served' && wire.nodes !== undefined;
    if (values['store-lag'] !== undefined && nodes) throw new UsageError('--store-lag goes with --target: the nodes --serve-node starts share whatever store the server uses, as it is');
    if (deployment && !nodes) throw new UsageError('--nodes, --balancer and --store-lag go with --target or --serve-node "CMD": a server over --url or --serve is checked as it is deployed');
    return wire;
  }
  const name = values['target'] as string | undefined;
  if (name === undefined) throw new UsageError('--target is required; `resumecheck targets` lists them');
  const base = await asUsage(() => describeTargetName(name));
  if (values['nodes'] === undefined) {
    if (deployment) throw new UsageError('--balancer and --store-lag need --nodes');
    return base;
  }
  const nodes = parseWhole(values['nodes'] as string, '--nodes', 1, NODES_MAX);
  const storeLagSteps = values['store-lag'] === undefined ? 0 : parseWhole(values['store-lag'] as string, '--store-lag', 0, STORE_LAG_MAX);
  const balancer = (values['balancer'] as string | undefined) ?? 'round-robin';
  // The balancer's name is checked when the deployment is built (multiNodeTarget), with the list of those there are.
  return asUsage(async () => deployedDescription(base, { nodes, balancer: balancer as BalancerName, storeLagSteps }));
}

/** The target fuzz's flags name, and the wire target when it is one (to prepare, report on and stop). */
export async function targetFromFlags(values: ParsedArgs['values']): Promise<{ readonly target: Target; readonly wire: WireTarget | null }> {
  const description = await describeTargetFlags(values);
  if (description.form === 'served' || description.form === 'remote') {
    const wire = await asUsage(() => resolveTarget(description));
    return { target: wire, wire };
  }
  return { target: await asUsage(() => resolveTarget(description)), wire: null };
}

/** Runs `build`, turning the resolver's bad-input errors into the CLI's. */
async function asUsage<T>(build: () => Promise<T> | T): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (error instanceof TargetResolutionError) throw new UsageError(error.message);
    throw error;
  }
}
