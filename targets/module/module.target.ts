// A server author's EventStore inside the real SDK transport: the SDK harness (targets/sdk) with the stores made by
// the author's factory, once per session per incarnation, or once per incarnation with `shared`. Its name,
// `module:<path>[#export][+shared]`, is all `resumecheck replay` needs to rebuild it.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createSdkTarget } from '../sdk/sdk-server.ts';
import type { Incarnation, NodeBootOptions, ServerInstance, Target, TargetHost, TargetOptions, TargetRun } from '../target.ts';
import {
  type EventStoreFactory,
  type StoreContext,
  type StoreModuleRef,
  StoreModuleError,
  callFactory,
  firstLine,
  checkStoreModulePath,
  importStoreFactory,
  importStoreModule,
} from './store-module.ts';
import { installedStoreCallSlot, tracedFactory } from './call-slot.ts';
import { withTimeout } from './clock.ts';
import { FUNCTION_SOURCE_LABEL, MODULE_TARGET_PREFIX, moduleTargetName, parseModuleTargetName } from './module-name.ts';
import { patchNodeCrypto } from './random.ts';

export { FUNCTION_SOURCE_LABEL, MODULE_TARGET_PREFIX, moduleTargetName, parseModuleTargetName } from './module-name.ts';

/** Real milliseconds a store call may take before it counts as hung and is failed, unless the caller says otherwise. */
export const STORE_CALL_TIMEOUT_MS = 3_000;
export const STORE_CALL_TURNS_MAX = 1_000;

/** One simulated world's store module: its factory, and the teardown of what the world opened. */
export interface StoreWorld {
  readonly factory: EventStoreFactory;
  /** Given to the factory as `context.onRunEnd`. */
  readonly onRunEnd: (hook: () => unknown) => void;
  /**
   * Ends the world: calls every `onRunEnd` hook, then the module's `close()` export, each awaited within `timeoutMs`
   * real milliseconds. Returns what went wrong (a throw, a timeout), one line each; empty when all went well.
   */
  end(timeoutMs: number): Promise<string[]>;
}

/** Where a store's factory comes from: a module (imported afresh for each simulated world) or a function. */
export interface StoreSource {
  /** The module, or null for a function. */
  readonly ref: StoreModuleRef | null;
  /** The factory for one simulated world. */
  factoryFor(world: string): Promise<EventStoreFactory>;
  /** The factory and teardown of one simulated world. */
  openWorld(world: string): Promise<StoreWorld>;
}

function storeWorld(factory: EventStoreFactory, close: (() => unknown) | null): StoreWorld {
  const hooks: Array<() => unknown> = [];
  return {
    factory,
    onRunEnd: (hook) => {
      if (typeof hook !== 'function') throw new StoreModuleError('context.onRunEnd takes a function');
      hooks.push(hook);
    },
    async end(timeoutMs) {
      const problems: string[] = [];
      const steps = [...hooks.splice(0, hooks.length).map((hook) => ({ what: 'an onRunEnd hook', call: hook })), ...(close === null ? [] : [{ what: 'the module\'s close()', call: close }])];
      for (const { what, call } of steps) {
        try {
          await withTimeout(Promise.resolve().then(call), timeoutMs, () => new Error(`did not settle within ${timeoutMs} ms`));
        } catch (error) {
          problems.push(`${what} failed: ${firstLine(error)}`);
        }
      }
      return problems;
    },
  };
}

/**
 * A store source from a module reference: each world imports its own instance of the module (a URL never used
 * before), so state the module keeps starts empty, also when the same world is run again (shrinking, recording).
 */
export function moduleSource(ref: StoreModuleRef): StoreSource {
  // In a thread that watches for a store stopping it (a contained worker), each call is named in its slot.
  return tracedSource({
    ref,
    factoryFor: (world) => importStoreFactory(ref, world),
    openWorld: async (world) => {
      const exports = await importStoreModule(ref, world);
      return storeWorld(exports.factory, exports.close);
    },
  });
}

/**
 * The source with its import, its factory, its stores' calls and its teardown named in this thread's call slot
 * (call-slot.ts); the source itself when this thread installed none.
 */
function tracedSource(source: StoreSource): StoreSource {
  const slot = installedStoreCallSlot();
  if (slot === null) return source;
  return {
    ref: source.ref,
    factoryFor: async (world) => {
      slot.call(`importing the module for the run of seed ${world}`);
      return tracedFactory(await source.factoryFor(world), slot, world);
    },
    openWorld: async (world): Promise<StoreWorld> => {
      slot.call(`importing the module for the run of seed ${world}`);
      const opened = await source.openWorld(world);
      return {
        factory: tracedFactory(opened.factory, slot, world),
        onRunEnd: opened.onRunEnd,
        end: (timeoutMs) => {
          slot.call(`the run-end hooks and close() of the run of seed ${world}`);
          return opened.end(timeoutMs);
        },
      };
    },
  };
}

/** A store source from a factory function: the same function serves every world. */
export function functionSource(factory: EventStoreFactory): StoreSource {
  return { ref: null, factoryFor: async () => factory, openWorld: async () => storeWorld(factory, null) };
}


/** A failed store call the watchdog gave up on. */
export class StoreHangError extends Error {
  override readonly name = 'StoreHangError';
}

/** A module target: a Target that also tells which store calls hung in its runs. */
export interface ModuleTarget extends Target {
  /** Store calls that did not settle within the call timeout, and teardown problems, since the last look; clears the list. */
  takeHangs(): string[];
}

/** A line of the hang log that is a store call waited out (not a teardown problem). */
function isWait(line: string): boolean {
  return !line.startsWith('teardown: ');
}

/** Calls `call` now (its synchronous part runs at once, as the transport's would) and fails it if it never settles. */
function settleWithin<T>(call: () => Promise<T>, what: string, hangs: string[], timeoutMs: number, busy: { pending: number }): Promise<T> {
  let promise: Promise<T>;
  try {
    promise = Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
  busy.pending += 1;
  return withTimeout(promise, timeoutMs, () => {
    hangs.push(`${what} did not settle within ${timeoutMs} ms`);
    return new StoreHangError(`${what} did not settle`);
  }).finally(() => {
    busy.pending -= 1;
  });
}

/** The operations of a server instance after which a store call that hung ends the run. */
const OPERATIONS: ReadonlySet<PropertyKey> = new Set(['handle', 'cut', 'advance', 'notify', 'closeConnection', 'expire', 'crashNode', 'restartNode', 'catchUp', 'abortExecution']);

/**
 * The instance with each operation failing the run with a StoreHangError once a store call did not settle within the
 * call timeout: every later call could wait as long again, and the verdict is known (a fuzz of the module says so in
 * one line, sim/search/fuzz-workers.ts). check-store's end-to-end phase takes its hangs off the target instead.
 */
function endingOnHang<T extends ServerInstance>(instance: T, hangs: readonly string[]): T {
  const hung = (): string | undefined => hangs.find(isWait);
  const after = <R>(result: R): R => {
    const hang = hung();
    if (hang !== undefined) throw new StoreHangError(hang);
    return result;
  };
  return new Proxy(instance, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || !OPERATIONS.has(key)) return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...items: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise ? result.then(after) : after(result);
      };
    },
  });
}

/** The store as the transport gets it: the same methods, each guarded against hanging. */
function guardStore(inner: EventStore, hangs: string[], timeoutMs: number, busy: { pending: number }): EventStore {
  const store: EventStore = {
    storeEvent: (streamId, message) => settleWithin(() => inner.storeEvent(streamId, message), `storeEvent(${JSON.stringify(streamId)}, …)`, hangs, timeoutMs, busy),
    replayEventsAfter: (lastEventId, options) =>
      settleWithin(() => inner.replayEventsAfter(lastEventId, options), `replayEventsAfter(${JSON.stringify(lastEventId)}, …)`, hangs, timeoutMs, busy),
  };
  const lookup = inner.getStreamIdForEventId;
  if (lookup !== undefined) {
    store.getStreamIdForEventId = (eventId) => settleWithin(async () => lookup.call(inner, eventId), `getStreamIdForEventId(${JSON.stringify(eventId)})`, hangs, timeoutMs, busy);
  }
  return store;
}

function contextFor(incarnation: Incarnation, options: TargetOptions, flags: { shared: boolean; durable: boolean }, sessionId: string | null, world: StoreWorld): StoreContext {
  return { sessionId, epoch: incarnation.epoch, shared: flags.shared, durable: flags.durable, windowEventsMax: options.windowEventsMax, world: options.seed, onRunEnd: world.onRunEnd };
}

/**
 * The SDK transport with a store from `source`. Each `open` gets the factory of its world (a fresh module instance);
 * without `shared`, the factory is called for each new session; with it, once per incarnation (eagerly, at boot).
 * A factory that throws or returns no EventStore during a run is bad input ({@link StoreModuleError}).
 */
export function createModuleTarget(source: StoreSource, options: { shared: boolean; durable?: boolean; callTimeoutMs?: number; hangEndsRun?: boolean }): ModuleTarget {
  const { shared } = options;
  const durable = options.durable ?? false;
  const timeoutMs = options.callTimeoutMs ?? STORE_CALL_TIMEOUT_MS;
  const name = moduleTargetName(source.ref, { shared });
  const where = source.ref === null ? 'the factory' : source.ref.path;
  const hangs: string[] = [];
  let waitsTaken = 0;
  const description = `MCP TypeScript SDK 1.32 transport + McpServer with the EventStore from ${name.slice(MODULE_TARGET_PREFIX.length)}${shared ? ', one instance shared by all sessions of an incarnation' : ', one instance per session'}`;
  return {
    name,
    kind: 'module',
    description,
    breaks: [],
    // The store may keep what the simulator does not reset between runs (globals, files, a database).
    flakyRuns: true,
    takeHangs: () => {
      const taken = hangs.splice(0, hangs.length);
      waitsTaken += taken.filter(isWait).length;
      return taken;
    },
    // Each store call that did not settle waited out the call timeout.
    timeoutsWaited: () => waitsTaken + hangs.filter(isWait).length,
    async open(runOptions: TargetOptions): Promise<TargetRun> {
      let world: StoreWorld | null = null;
      const busy = { pending: 0 };
      const requireWorld = (): StoreWorld => {
        if (world === null) throw new Error('assertion: a module target booted before its factory was imported');
        return world;
      };
      const inner = createSdkTarget({
        name,
        kind: 'module',
        description,
        createStores: (incarnation, targetOptions) => {
          const make = (sessionId: string | null): Promise<EventStore> =>
            callFactory(requireWorld().factory, contextFor(incarnation, targetOptions, { shared, durable }, sessionId, requireWorld()), where, timeoutMs).then((store) =>
              guardStore(store, hangs, timeoutMs, busy),
            );
          // A store doing I/O is slow, not done: the harness waits (in real time) while one of its calls is pending.
          const pendingWork = (): number => busy.pending;
          if (!shared) return { forSession: (sessionId) => make(sessionId), endSession: () => {}, pendingWork };
          const instance = make(null);
          // Awaited by each session; until then a rejection is not unhandled.
          instance.catch(() => {});
          return { forSession: () => instance, endSession: () => {}, pendingWork };
        },
      });
      // The store's own draws from node:crypto are seeded by the run too (the SDK target seeds the globals it uses).
      const crypto = patchNodeCrypto(runOptions.seed);
      let run: TargetRun;
      try {
        // Open first: the run's patched clock and randomness are in place when the module's top level runs.
        run = await inner.open(runOptions);
      } catch (error) {
        crypto.restore();
        throw error;
      }
      try {
        world = await source.openWorld(runOptions.seed);
      } catch (error) {
        try {
          await run.close();
        } finally {
          crypto.restore();
        }
        if (error instanceof StoreModuleError) throw error;
        throw new StoreModuleError(`${where}: ${firstLine(error)}`);
      }
      const opened = world;
      const ending = <T extends ServerInstance>(instance: T): T => (options.hangEndsRun === true ? endingOnHang(instance, hangs) : instance);
      return {
        sync: run.sync,
        boot: (incarnation, host) => ending(run.boot(incarnation, host)),
        // On several nodes (--nodes), each node is its own SDK app over the incarnation's stores, as the SDK targets' are:
        // with +shared, one store instance every node writes to and resumes from (a Redis store behind a balancer).
        ...(run.bootNode === undefined ? {} : { bootNode: (incarnation: Incarnation, host: TargetHost, nodeOptions: NodeBootOptions) => ending(run.bootNode!(incarnation, host, nodeOptions)) }),
        async close() {
          try {
            await run.close();
          } finally {
            try {
              hangs.push(...(await opened.end(timeoutMs)).map((problem) => `teardown: ${problem}`));
            } finally {
              crypto.restore();
            }
          }
        },
      };
    },
  };
}

/**
 * The store module a module target's name stands for, checked (its path names a loadable module), with the flags
 * the name gives; null for other names. A store given to checkEventStore as a function has no module to name.
 */
export function moduleSourceOfName(name: string): { readonly source: StoreSource; readonly shared: boolean; readonly durable: boolean } | null {
  const parsed = parseModuleTargetName(name);
  if (parsed === null) return null;
  if (parsed.ref.path === FUNCTION_SOURCE_LABEL) {
    throw new StoreModuleError(`target ${name}: the store was given to checkEventStore as a function, not a module; replay it with the same function through the library`);
  }
  checkStoreModulePath(parsed.ref);
  return { source: moduleSource(parsed.ref), shared: parsed.shared, durable: parsed.durable };
}

/** The module target a name stands for (`resumecheck replay` of a check-store trace), or null for other names. */
export function moduleTargetFromName(name: string): ModuleTarget | null {
  const named = moduleSourceOfName(name);
  return named === null ? null : createModuleTarget(named.source, { shared: named.shared, durable: named.durable, hangEndsRun: true });
}
