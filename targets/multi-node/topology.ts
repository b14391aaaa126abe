// A deployment's shape (how many nodes, which balancer, how late a write reaches the others), its bounds and its name
// (`NAME@N:BALANCER[:lagL]`, and `serve-node:CMD@N:BALANCER` for a served command): plain data with no simulator
// behind it, so the CLI and the resolver read and write names without loading the deployment itself.

import { BALANCER_NAMES, type BalancerName, isBalancerName } from './balancer.ts';

/** How many nodes, which balancer, and how late a write reaches the other nodes. */
export interface Topology {
  /** Nodes, 1 to {@link NODES_MAX}. */
  readonly nodes: number;
  readonly balancer: BalancerName;
  /** Deployment operations a write by one node takes to reach the others, 0 to {@link STORE_LAG_MAX}. */
  readonly storeLagSteps: number;
}

/** Most nodes a deployment may have. */
export const NODES_MAX = 8;
/** Most operations of store lag. */
export const STORE_LAG_MAX = 100;

/** A topology that cannot be built: bad input, one line. */
export class TopologyError extends Error {
  override readonly name = 'TopologyError';
}

/** `NAME@N:BALANCER`, with `:lagL` when there is a store lag: all `resumecheck replay` needs to rebuild it. */
export function multiNodeName(base: string, topology: Topology): string {
  return `${base}@${topology.nodes}:${topology.balancer}${topology.storeLagSteps > 0 ? `:lag${topology.storeLagSteps}` : ''}`;
}

/** Splits a multi-node name into the base target's name and the topology, bounds unchecked; null when it is not one. */
export function splitMultiNodeName(name: string): { base: string; topology: Topology } | null {
  const at = name.lastIndexOf('@');
  if (at <= 0) return null;
  const match = /^(\d{1,2}):([a-z-]+)(?::lag(\d{1,3}))?$/.exec(name.slice(at + 1));
  if (match === null || !isBalancerName(match[2]!)) return null;
  const topology: Topology = { nodes: Number(match[1]), balancer: match[2], storeLagSteps: match[3] === undefined ? 0 : Number(match[3]) };
  return { base: name.slice(0, at), topology };
}

/** Reads a multi-node name back into the base target's name and the topology; null when `name` is not one. */
export function parseMultiNodeName(name: string): { base: string; topology: Topology } | null {
  const split = splitMultiNodeName(name);
  if (split !== null) checkTopology(split.topology);
  return split;
}

/** The nodes a served command is started on (`--serve-node CMD --nodes N --balancer B`). */
export interface ServedNodes {
  readonly count: number;
  readonly balancer: BalancerName;
}

/** The target name of a server started on several nodes: `serve-node:CMD@N:BALANCER` (no store lag: the store is the server's). */
export function servedNodesName(command: string, nodes: ServedNodes): string {
  return multiNodeName(`serve-node:${command}`, { nodes: nodes.count, balancer: nodes.balancer, storeLagSteps: 0 });
}

/** The command and nodes of a `serve-node:CMD@N:BALANCER` name, bounds unchecked; null for any other name. */
export function splitServedNodesName(name: string): { command: string; nodes: ServedNodes } | null {
  if (!name.startsWith('serve-node:')) return null;
  const split = splitMultiNodeName(name);
  if (split === null || split.topology.storeLagSteps !== 0) return null;
  return { command: split.base.slice('serve-node:'.length), nodes: { count: split.topology.nodes, balancer: split.topology.balancer } };
}

/** Checks a topology's bounds; throws a {@link TopologyError} naming the first one out of them. */
export function checkTopology(topology: Topology): void {
  if (!Number.isInteger(topology.nodes) || topology.nodes < 1 || topology.nodes > NODES_MAX) {
    throw new TopologyError(`--nodes takes a whole number from 1 to ${NODES_MAX}, got ${String(topology.nodes)}`);
  }
  if (!isBalancerName(topology.balancer)) {
    throw new TopologyError(`--balancer takes one of ${BALANCER_NAMES.join(', ')}, got ${JSON.stringify(topology.balancer)}`);
  }
  if (!Number.isInteger(topology.storeLagSteps) || topology.storeLagSteps < 0 || topology.storeLagSteps > STORE_LAG_MAX) {
    throw new TopologyError(`--store-lag takes a whole number from 0 to ${STORE_LAG_MAX}, got ${String(topology.storeLagSteps)}`);
  }
}
