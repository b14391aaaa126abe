// A deployment of several nodes behind a load balancer, over one shared storage: any target whose run can boot
// nodes (TargetRun.bootNode: the kit servers and the SDK targets) becomes `NAME@N:BALANCER[:lagL]`. Each node is its
// own server (its own connections, transports, executions); the storage is the base target's, shared by the nodes
// of one incarnation; a node may crash and boot again (one at a time) while the others serve.

import type {
  ExecutionStart,
  Frame,
  HttpRequest,
  HttpResponse,
  Incarnation,
  JsonRpcMessage,
  NodeInstance,
  ServerInstance,
  Target,
  TargetHost,
  TargetRun,
  ToolStep,
} from '../target.ts';
import { type Balancer, createBalancer } from './balancer.ts';
import { levelOf } from '../../sim/levels/level.ts';

import { type Topology, TopologyError, checkTopology, multiNodeName } from './topology.ts';

export { NODES_MAX, STORE_LAG_MAX, type Topology, TopologyError, checkTopology, multiNodeName, parseMultiNodeName } from './topology.ts';

/**
 * The base target deployed on several nodes. A store lag needs nodes that read each other's writes (the kit
 * servers); the SDK's nodes never do (each routes only the sessions it initialized, answering 404 to the others),
 * so a lag could not be observed there and is refused rather than silently ignored.
 */
export function multiNodeTarget(base: Target, topology: Topology): Target {
  checkTopology(topology);
  // A client target runs a real client against one simulated server: it has no nodes to deploy.
  if (levelOf(base) !== undefined) throw new TopologyError(`${base.name} is a client-level target; --nodes deploys a server target on several nodes`);
  if (topology.storeLagSteps > 0 && (base.kind === 'sdk' || base.kind === 'module')) {
    throw new TopologyError(
      `--store-lag applies to the kit targets (reference, planted); ${base.name}'s nodes each serve only the sessions they initialized, so no node reads another's writes`,
    );
  }
  return {
    name: multiNodeName(base.name, topology),
    kind: base.kind,
    description: `${base.description}; ${topology.nodes} nodes behind a ${topology.balancer} balancer over one shared storage${topology.storeLagSteps > 0 ? `, writes reaching other nodes ${topology.storeLagSteps} operations late` : ''}`,
    breaks: base.breaks,
    // What the base target says of itself holds of every node: the SDK it runs, the eras it serves, runs that may differ.
    ...(base.sdk === undefined ? {} : { sdk: base.sdk }),
    ...(base.eras === undefined ? {} : { eras: base.eras }),
    ...(base.flakyRuns === true ? { flakyRuns: true } : {}),
    async open(options) {
      const run = await base.open(options);
      if (run.bootNode === undefined) {
        await run.close();
        throw new Error(`assertion: target ${base.name} cannot boot nodes (its run has no bootNode)`);
      }
      return deploymentRun(run, topology, options.seed);
    },
  };
}

/**
 * A run of `run`'s target deployed on `topology`'s nodes behind its balancer: what multiNodeTarget opens, and what a
 * server over the wire started on several nodes (`fuzz --serve-node`) opens, its nodes processes of their own.
 */
export function deploymentRun(run: TargetRun, topology: Topology, seed: string): TargetRun {
  return {
    sync: run.sync,
    nodes: topology.nodes,
    // What the base run cannot carry out or how its tools answer holds of every node.
    ...(run.unsupported === undefined ? {} : { unsupported: run.unsupported }),
    ...(run.answersWithinRequest === undefined ? {} : { answersWithinRequest: run.answersWithinRequest }),
    ...(run.sessionsOutliveRestart === undefined ? {} : { sessionsOutliveRestart: run.sessionsOutliveRestart }),
    boot(incarnation, host) {
      return new Deployment(run, incarnation, host, topology, createBalancer(topology.balancer, seed));
    },
    close() {
      return run.close();
    },
  };
}

/** Applies `then` to a value that may be a promise, staying synchronous when it is not (the kit's fast loop). */
function after<T, R>(value: T | Promise<T>, then: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** The simulator's host as one node sees it: the executions it starts are marked with its number. */
class NodeHost implements TargetHost {
  constructor(
    private readonly host: TargetHost,
    private readonly node: number,
    private readonly executionNodes: Map<number, number>,
  ) {}

  frame(connection: number, frame: Frame): void {
    this.host.frame(connection, frame);
  }

  end(connection: number): void {
    this.host.end(connection);
  }

  startExecution(start: ExecutionStart): number {
    const execution = this.host.startExecution({ ...start, node: this.node });
    this.executionNodes.set(execution, this.node);
    return execution;
  }

  nextStep(execution: number): ToolStep {
    return this.host.nextStep(execution);
  }

  cancelled(execution: number): void {
    this.host.cancelled(execution);
  }

  random(): number {
    return this.host.random();
  }
}

/** Removes the entries held by `node` (a map in insertion order, read and then changed). */
function forgetNode(holders: Map<number, number>, node: number): void {
  for (const [key, holder] of [...holders]) if (holder === node) holders.delete(key);
}

/** One incarnation of the deployment: the nodes, the balancer, and who holds what. */
class Deployment implements ServerInstance {
  /** Each node, or null while it is down. */
  private readonly nodes: (NodeInstance | null)[] = [];
  /** The node that answered each connection's request. */
  private readonly holders = new Map<number, number>();
  private readonly executionNodes = new Map<number, number>();
  /** The node that initialized each session: server-side events of the session (notify, expire) start there. */
  private readonly homes = new Map<string, number>();

  constructor(
    private readonly run: TargetRun,
    private readonly incarnation: Incarnation,
    private readonly host: TargetHost,
    private readonly topology: Topology,
    private readonly balancer: Balancer,
  ) {
    for (let node = 0; node < topology.nodes; node += 1) this.nodes.push(this.bootNode(node));
  }

  handle(request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const node = this.balancer.pick(request, this.nodes.map((instance) => instance !== null));
    this.holders.set(request.connection, node);
    return after(this.nodes[node]!.handle(request), (response) => {
      if (request.method === 'POST' && request.sessionId === null && response.status === 200 && response.sessionId !== null) {
        this.homes.set(response.sessionId, node);
        this.balancer.pinned(response.sessionId, node);
      }
      return { ...response, node };
    });
  }

  cut(connection: number): void | Promise<void> {
    return this.holderOf(connection)?.cut(connection);
  }

  advance(execution: number): void | Promise<void> {
    const node = this.executionNodes.get(execution);
    return node === undefined ? undefined : this.nodes[node]?.advance(execution);
  }

  notify(sessionId: string, message: JsonRpcMessage): void | Promise<void> {
    return this.homeOf(sessionId).notify(sessionId, message);
  }

  closeConnection(connection: number, retryMs: number): void | Promise<void> {
    return this.holderOf(connection)?.closeConnection(connection, retryMs);
  }

  expire(sessionId: string): void | Promise<void> {
    return this.homeOf(sessionId).expire(sessionId);
  }

  async dispose(): Promise<void> {
    for (const node of this.nodes) if (node !== null) await node.dispose();
  }

  crashNode(node: number): void | Promise<void> {
    const instance = this.nodes[node];
    if (instance === null || instance === undefined) throw new Error(`assertion: node ${node + 1} crashed while down`);
    this.nodes[node] = null;
    if (this.nodes.every((other) => other === null)) throw new Error('assertion: every node is down');
    // Its connections and executions die with it: an operation on one later is a no-op, never one on the node's next
    // incarnation, which never saw them (the SDK's nodes assert that every connection they are asked about is theirs).
    forgetNode(this.holders, node);
    forgetNode(this.executionNodes, node);
    return instance.crash();
  }

  restartNode(node: number): void {
    if (this.nodes[node] !== null) throw new Error(`assertion: node ${node + 1} restarted while up`);
    this.nodes[node] = this.bootNode(node);
  }

  catchUp(): void | Promise<void> {
    for (const node of this.nodes) if (node !== null) node.catchUp?.();
  }

  lagging(): boolean {
    return this.nodes.some((node) => node !== null && node.lagging?.() === true);
  }

  private bootNode(node: number): NodeInstance {
    const host = new NodeHost(this.host, node, this.executionNodes);
    return this.run.bootNode!(this.incarnation, host, { node, storeLagSteps: this.topology.storeLagSteps });
  }

  private holderOf(connection: number): NodeInstance | null {
    const node = this.holders.get(connection);
    return node === undefined ? null : (this.nodes[node] ?? null);
  }

  /** The session's home node when it is up; otherwise the lowest-numbered node up (which may not know the session). */
  private homeOf(sessionId: string): NodeInstance {
    const home = this.homes.get(sessionId);
    if (home !== undefined && this.nodes[home] !== null) return this.nodes[home]!;
    return this.nodes.find((node) => node !== null)!;
  }
}
