// The load balancer in front of several nodes: which node answers each HTTP request. Deterministic: a pure function
// of the request, the run's seed and what the balancer saw before (its own round-robin position, its affinities).

import type { HttpRequest } from '../target.ts';

/** The balancers `--balancer` offers. */
export const BALANCER_NAMES = ['sticky', 'round-robin', 'random', 'failover'] as const;

/** One balancer. */
export type BalancerName = (typeof BALANCER_NAMES)[number];

/** True when `name` is a balancer's name. */
export function isBalancerName(name: string): name is BalancerName {
  return (BALANCER_NAMES as readonly string[]).includes(name);
}

/** What each balancer does, for `--help` and the README. */
export const BALANCER_DESCRIPTIONS: Readonly<Record<BalancerName, string>> = {
  sticky: 'session affinity: a session goes to the node that answered its initialize (re-pinned when that node is down)',
  'round-robin': 'each request to the next node up, in turn',
  random: "each request to a node drawn from the run's seed and the request's connection number",
  failover: 'every request to the lowest-numbered node up (a primary with standbys)',
};

/** A balancer of one deployment (one run). */
export interface Balancer {
  /** The node that answers `request`, among the nodes up (`up[n]`); at least one is up. */
  pick(request: HttpRequest, up: readonly boolean[]): number;
  /** A node answered an initialize with `sessionId`: a sticky balancer pins the session there. */
  pinned(sessionId: string, node: number): void;
}

/**
 * FNV-1a of a string, 32 bits, then murmur3's finalizer: a hash with no state, for the random balancer. Without the
 * finalizer, strings that differ only in their last character (consecutive connection numbers) fall in correlated
 * residues modulo small numbers: two consecutive requests never reached the same one of 3 nodes.
 */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

function upNodes(up: readonly boolean[]): number[] {
  const nodes: number[] = [];
  for (let node = 0; node < up.length; node += 1) if (up[node] === true) nodes.push(node);
  if (nodes.length === 0) throw new Error('assertion: a request reached the balancer with every node down');
  return nodes;
}

/**
 * Makes the balancer of one run. `random` hashes (seed, connection number) rather than drawing from the server's
 * random stream, so routing does not shift the session IDs a run draws, and a request's node does not depend on
 * how many draws came before it.
 */
export function createBalancer(name: BalancerName, seed: string): Balancer {
  let last = -1;
  const affinity = new Map<string, number>();
  const nextAfterLast = (up: readonly boolean[]): number => {
    const nodes = upNodes(up);
    const next = nodes.find((node) => node > last) ?? nodes[0]!;
    last = next;
    return next;
  };
  return {
    pick(request, up) {
      switch (name) {
        case 'round-robin':
          return nextAfterLast(up);
        case 'random': {
          const nodes = upNodes(up);
          return nodes[hashOf(`${seed}/balancer/${request.connection}`) % nodes.length]!;
        }
        case 'failover':
          return upNodes(up)[0]!;
        case 'sticky': {
          const pinned = request.sessionId === null ? undefined : affinity.get(request.sessionId);
          if (pinned !== undefined && up[pinned] === true) return pinned;
          const node = nextAfterLast(up);
          if (request.sessionId !== null && pinned !== undefined) affinity.set(request.sessionId, node);
          return node;
        }
      }
    },
    pinned(sessionId, node) {
      if (name === 'sticky') affinity.set(sessionId, node);
    },
  };
}
