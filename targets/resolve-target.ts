// The one way from a description of a target to the target: a built-in name (through the lazy registry, so the SDK
// is loaded only for an SDK target), a user's store module (`module:PATH[#export][+shared]`), a deployment of any
// in-process target on several nodes (`NAME@N:BALANCER[:lagL]`, or `--nodes N --balancer B`), a server resumecheck
// starts (`--serve`) and one already running (`--url`). The CLI and the worker threads both resolve through here:
// a worker is sent the description (plain data), never a target object, and builds the same target from it.

import { levelOf, type LevelName } from '../sim/levels/level.ts';
import { TARGET_ENTRIES, targetEntry } from './registry.ts';
import type { Target } from './target.ts';
import { type ServedNodes, type Topology, TopologyError, multiNodeName, parseMultiNodeName, servedNodesName, splitServedNodesName } from './multi-node/topology.ts';
import type { WireTarget } from './wire/wire.target.ts';

/** A target run in this process: what a worker thread can be sent and build again. */
export type InProcessDescription =
  | { readonly form: 'built-in'; readonly name: string }
  | { readonly form: 'module'; readonly name: string }
  | { readonly form: 'deployed'; readonly base: InProcessDescription; readonly topology: Topology };

/**
 * A server reached over the wire: started by resumecheck (`served`, on `nodes` when given) or already running
 * (`remote`).
 */
export type WireDescription =
  | {
      readonly form: 'served';
      readonly command: string;
      readonly url: string | null;
      readonly allowRemote: boolean;
      readonly settleMs: number | null;
      readonly echoTool: string | null;
      readonly nodes?: ServedNodes;
    }
  | { readonly form: 'remote'; readonly url: string; readonly allowRemote: boolean; readonly settleMs: number | null; readonly echoTool: string | null };

/** Every form a target can be given in: plain data (structured-cloneable, JSON-serialisable). */
export type TargetDescription = InProcessDescription | WireDescription;

/**
 * A target that cannot be built as described (an unknown name, a malformed deployment, a package not installed):
 * the user's input, one line. The CLI turns it into its bad-input error (exit 2); a worker reports it as a failure.
 */
export class TargetResolutionError extends Error {
  override readonly name = 'TargetResolutionError';
}

/** True for the forms reached over the wire. */
export function isWireDescription(description: TargetDescription): description is WireDescription {
  return description.form === 'served' || description.form === 'remote';
}

/**
 * The description a target name stands for, as `--target` takes it and traces record it: `serve:CMD`, `url:URL`,
 * `module:…`, `NAME@N:BALANCER[:lagL]`, or a built-in name (whether it exists is checked when it is resolved).
 */
export async function describeTargetName(name: string): Promise<TargetDescription> {
  const wire = wireDescriptionOfName(name);
  if (wire !== null) return wire;
  // A deployment first: its base may be a store module (`module:PATH@2:sticky`); a name whose tail after its last
  // `@` is no topology (a scoped package in a module's path) is not one.
  if (name.includes('@')) {
    try {
      const parsed = parseMultiNodeName(name);
      if (parsed !== null) return deployedDescription(await describeTargetName(parsed.base), parsed.topology);
    } catch (error) {
      if (error instanceof TopologyError) throw new TargetResolutionError(`target ${JSON.stringify(name)}: ${error.message}`);
      throw error;
    }
  }
  // The prefix is module.target.ts's MODULE_TARGET_PREFIX, spelled out so that other names do not load that module.
  if (name.startsWith('module:')) return { form: 'module', name };
  return { form: 'built-in', name };
}

/**
 * The wire server a trace's target name stands for (`serve:CMD`, `serve-node:CMD@N:BALANCER`, `url:URL`), with default
 * options; null for other names (and for a `serve-node:` name whose tail names no nodes and balancer).
 */
export function wireDescriptionOfName(name: string): WireDescription | null {
  if (name.startsWith('serve:')) return { form: 'served', command: name.slice('serve:'.length), url: null, allowRemote: false, settleMs: null, echoTool: null };
  if (name.startsWith('serve-node:')) {
    const split = splitServedNodesName(name);
    return split === null ? null : { form: 'served', command: split.command, url: null, allowRemote: false, settleMs: null, echoTool: null, nodes: split.nodes };
  }
  if (name.startsWith('url:')) return { form: 'remote', url: name.slice('url:'.length), allowRemote: false, settleMs: null, echoTool: null };
  return null;
}

/** `base` deployed on several nodes; a base over the wire or already deployed cannot be. */
export function deployedDescription(base: TargetDescription, topology: Topology): InProcessDescription {
  if (isWireDescription(base)) throw new TargetResolutionError('--nodes, --balancer and --store-lag go with --target: a server over the wire is checked as it is deployed');
  if (base.form === 'deployed') throw new TargetResolutionError(`target ${targetNameOf(base)} already names its nodes; give --nodes with its base target instead`);
  return { form: 'deployed', base, topology };
}

/** The name the described target carries (what its traces record), without building it. */
export function targetNameOf(description: TargetDescription): string {
  switch (description.form) {
    case 'built-in':
    case 'module':
      return description.name;
    case 'deployed': {
      return multiNodeName(targetNameOf(description.base), description.topology);
    }
    case 'served':
      return description.nodes === undefined ? `serve:${description.command}` : servedNodesName(description.command, description.nodes);
    case 'remote':
      return `url:${new URL(description.url).href}`;
  }
}

/** Which description each target this module built was built from: what a worker is sent to build it again. */
const DESCRIPTIONS = new WeakMap<Target, InProcessDescription>();

/** Builds the target a description stands for; a wire target is created, not started (its `prepare` starts it). */
export async function resolveTarget(description: WireDescription): Promise<WireTarget>;
export async function resolveTarget(description: InProcessDescription): Promise<Target>;
export async function resolveTarget(description: TargetDescription): Promise<Target>;
export async function resolveTarget(description: TargetDescription): Promise<Target> {
  if (isWireDescription(description)) return resolveWire(description);
  const target = await resolveInProcess(description);
  if (!DESCRIPTIONS.has(target)) DESCRIPTIONS.set(target, description);
  return target;
}

async function resolveInProcess(description: InProcessDescription): Promise<Target> {
  switch (description.form) {
    case 'module': {
      const { moduleTargetFromName } = await import('./module/module.target.ts');
      const target = moduleTargetFromName(description.name);
      if (target === null) throw new TargetResolutionError(`target ${JSON.stringify(description.name)} is not a store module name (module:PATH[#export][+shared])`);
      return target;
    }
    case 'deployed': {
      const { multiNodeTarget, TopologyError } = await import('./multi-node/multi-node.target.ts');
      const base = await resolveTarget(description.base);
      try {
        return multiNodeTarget(base, description.topology);
      } catch (error) {
        if (error instanceof TopologyError) throw new TargetResolutionError(error.message);
        throw error;
      }
    }
    case 'built-in': {
      const entry = targetEntry(description.name);
      if (entry === undefined) {
        throw new TargetResolutionError(`unknown target ${JSON.stringify(description.name)}; known: ${TARGET_ENTRIES.map((known) => known.name).join(', ')}`);
      }
      try {
        return await entry.load();
      } catch (error) {
        // The 2.x SDK targets need an optional peer of the package: its absence is the user's setup, said in one line.
        const missing = missingPackageOf(error);
        if (missing !== null) throw new TargetResolutionError(`target ${description.name} needs the package ${missing}, which is not installed (npm install ${missing})`);
        throw error;
      }
    }
  }
}

/**
 * The target a trace made at `level` names. A store module's name stands for the store inside the SDK transport at the
 * server level, and for the store driven directly at the store level; any other target runs at the level it has,
 * which must be the one the trace records (a trace that records none, written before traces said their level, takes
 * its target's).
 */
export async function resolveTargetAtLevel(description: TargetDescription, level: LevelName | undefined): Promise<Target> {
  if (level === 'store') {
    if (description.form !== 'module') throw new TargetResolutionError(`a store-level trace runs a store module: its target must be module:PATH[#export][+shared][+durable], not ${JSON.stringify(targetNameOf(description))}`);
    const { storeLevelTargetFromName } = await import('./module/store-level.target.ts');
    return storeLevelTargetFromName(description.name)!;
  }
  const target = await resolveTarget(description);
  if (level !== undefined && levelOf(target)?.name !== level) {
    throw new TargetResolutionError(`${target.name} runs at the ${levelOf(target)?.name ?? 'server'} level, and the trace was made at the ${level ?? 'server'} level`);
  }
  return target;
}

async function resolveWire(description: WireDescription): Promise<WireTarget> {
  const { createWireTarget } = await import('./wire/wire.target.ts');
  const { WireInputError } = await import('./wire/wire-error.ts');
  try {
    return await createWireTarget({
      url: description.url,
      serve: description.form === 'served' ? description.command : null,
      allowRemote: description.allowRemote,
      ...(description.settleMs === null ? {} : { timing: { quietMs: description.settleMs } }),
      echoTool: description.echoTool,
      ...(description.form === 'served' && description.nodes !== undefined ? { nodes: description.nodes } : {}),
    });
  } catch (error) {
    if (error instanceof WireInputError) throw new TargetResolutionError(error.message);
    throw error;
  }
}

/**
 * The description a worker thread is sent to build `target` again, or null when it cannot: a target built here
 * has the description it was built from; a built-in target imported directly (the library's TARGETS) is the
 * registry's own object; any other target (made in a test, a wire target) is not rebuilt by a worker.
 */
export async function workerDescriptionOf(target: Target): Promise<InProcessDescription | null> {
  const recorded = DESCRIPTIONS.get(target);
  if (recorded !== undefined) return recorded;
  const entry = targetEntry(target.name);
  if (entry === undefined) return null;
  try {
    return (await entry.load()) === target ? { form: 'built-in', name: target.name } : null;
  } catch {
    return null;
  }
}

/** The npm package a failed import could not find, or null when the failure is something else. */
export function missingPackageOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return null;
  const match = /Cannot find package '((?:@[^/']+\/)?[^/']+)'/.exec(String((error as { message?: unknown }).message));
  return match?.[1] ?? null;
}
