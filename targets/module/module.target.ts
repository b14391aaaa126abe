// A server author's EventStore inside the real SDK transport: the SDK harness (targets/sdk) with the stores made by
// the author's factory, once per session per incarnation, or once per incarnation with `shared`. Its name,
// `module:<path>[#export][+shared]`, is all `resumecheck replay` needs to rebuild it.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { macrotaskTurn } from '../../sim/clock.ts';
import { createSdkTarget } from '../sdk/sdk-server.ts';
import type { Incarnation, Target, TargetOptions, TargetRun } from '../target.ts';
import {
  type EventStoreFactory,
  type StoreContext,
  type StoreModuleRef,
  StoreModuleError,
  callFactory,
  displayPath,
  firstLine,
  checkStoreModulePath,
  importStoreFactory,
} from './store-module.ts';

/** The prefix of every module target's name. */
export const MODULE_TARGET_PREFIX = 'module:';
/** What a factory given as a function (not a module) is called in target names: it cannot be replayed by name. */
export const FUNCTION_SOURCE_LABEL = '(function)';
/** Macrotask turns a store call may take before it counts as hung and is failed (so a hung store cannot hang a run). */
export const STORE_CALL_TURNS_MAX = 1_000;

/** Where a store's factory comes from: a module (imported afresh for each simulated world) or a function. */
export interface StoreSource {
  /** The module, or null for a function. */
  readonly ref: StoreModuleRef | null;
  /** The factory for one simulated world. */
  factoryFor(world: string): Promise<EventStoreFactory>;
}

/**
 * A store source from a module reference: each world imports its own instance of the module (a URL never used
 * before), so state the module keeps starts empty, also when the same world is run again (shrinking, recording).
 */
export function moduleSource(ref: StoreModuleRef): StoreSource {
  return { ref, factoryFor: (world) => importStoreFactory(ref, world) };
}

/** A store source from a factory function: the same function serves every world. */
export function functionSource(factory: EventStoreFactory): StoreSource {
  return { ref: null, factoryFor: async () => factory };
}

/** `module:<path>[#export][+shared]`; a function source is `module:(function)`. */
export function moduleTargetName(ref: StoreModuleRef | null, options: { shared: boolean }): string {
  const where = ref === null ? FUNCTION_SOURCE_LABEL : `${displayPath(ref.path)}${ref.exportName === null ? '' : `#${ref.exportName}`}`;
  return `${MODULE_TARGET_PREFIX}${where}${options.shared ? '+shared' : ''}`;
}

/** Reads a module target's name back; null when `name` is not one. */
export function parseModuleTargetName(name: string): { ref: StoreModuleRef; shared: boolean } | null {
  if (!name.startsWith(MODULE_TARGET_PREFIX)) return null;
  let rest = name.slice(MODULE_TARGET_PREFIX.length);
  const shared = rest.endsWith('+shared');
  if (shared) rest = rest.slice(0, -'+shared'.length);
  const hash = rest.lastIndexOf('#');
  const exportName = hash >= 0 && /^[A-Za-z_$][\w$]*$/.test(rest.slice(hash + 1)) ? rest.slice(hash + 1) : null;
  const path = exportName === null ? rest : rest.slice(0, hash);
  return { ref: { path, exportName }, shared };
}

/** A failed store call the watchdog gave up on. */
export class StoreHangError extends Error {
  override readonly name = 'StoreHangError';
}

/** A module target: a Target that also tells which store calls hung in its runs. */
export interface ModuleTarget extends Target {
  /** Store calls that did not settle within {@link STORE_CALL_TURNS_MAX} turns since the last call; clears the list. */
  takeHangs(): string[];
}

/** Calls `call` now (its synchronous part runs at once, as the transport's would) and fails it if it never settles. */
function settleWithin<T>(call: () => Promise<T>, what: string, hangs: string[]): Promise<T> {
  let promise: Promise<T>;
  try {
    promise = call();
  } catch (error) {
    return Promise.reject(error);
  }
  let settled = false;
  const done = (): void => {
    settled = true;
  };
  Promise.resolve(promise).then(done, done);
  const watchdog = (async (): Promise<T> => {
    for (let turn = 0; turn < STORE_CALL_TURNS_MAX; turn += 1) {
      await macrotaskTurn();
      if (settled) return promise;
    }
    hangs.push(`${what} did not settle within ${STORE_CALL_TURNS_MAX} macrotask turns`);
    throw new StoreHangError(`${what} did not settle`);
  })();
  return Promise.race([Promise.resolve(promise), watchdog]);
}

/** The store as the transport gets it: the same methods, each guarded against hanging. */
function guardStore(inner: EventStore, hangs: string[]): EventStore {
  const store: EventStore = {
    storeEvent: (streamId, message) => settleWithin(() => inner.storeEvent(streamId, message), `storeEvent(${JSON.stringify(streamId)}, …)`, hangs),
    replayEventsAfter: (lastEventId, options) =>
      settleWithin(() => inner.replayEventsAfter(lastEventId, options), `replayEventsAfter(${JSON.stringify(lastEventId)}, …)`, hangs),
  };
  const lookup = inner.getStreamIdForEventId;
  if (lookup !== undefined) {
    store.getStreamIdForEventId = (eventId) => settleWithin(async () => lookup.call(inner, eventId), `getStreamIdForEventId(${JSON.stringify(eventId)})`, hangs);
  }
  return store;
}

function contextFor(incarnation: Incarnation, options: TargetOptions, shared: boolean, sessionId: string | null): StoreContext {
  return { sessionId, epoch: incarnation.epoch, shared, windowEventsMax: options.windowEventsMax, world: options.seed };
}

/**
 * The SDK transport with a store from `source`. Each `open` gets the factory of its world (a fresh module instance);
 * without `shared`, the factory is called for each new session; with it, once per incarnation (eagerly, at boot).
 * A factory that throws or returns no EventStore during a run is bad input ({@link StoreModuleError}).
 */
export function createModuleTarget(source: StoreSource, options: { shared: boolean }): ModuleTarget {
  const { shared } = options;
  const name = moduleTargetName(source.ref, { shared });
  const where = source.ref === null ? 'the factory' : source.ref.path;
  const hangs: string[] = [];
  const description = `MCP TypeScript SDK 1.32 transport + McpServer with the EventStore from ${name.slice(MODULE_TARGET_PREFIX.length)}${shared ? ', one instance shared by all sessions of an incarnation' : ', one instance per session'}`;
  return {
    name,
    kind: 'module',
    description,
    breaks: [],
    takeHangs: () => hangs.splice(0, hangs.length),
    async open(runOptions: TargetOptions): Promise<TargetRun> {
      let factory: EventStoreFactory | null = null;
      const requireFactory = (): EventStoreFactory => {
        if (factory === null) throw new Error('assertion: a module target booted before its factory was imported');
        return factory;
      };
      const inner = createSdkTarget({
        name,
        kind: 'module',
        description,
        createStores: (incarnation, targetOptions) => {
          const make = (sessionId: string | null): Promise<EventStore> =>
            callFactory(requireFactory(), contextFor(incarnation, targetOptions, shared, sessionId), where).then((store) => guardStore(store, hangs));
          if (!shared) return { forSession: (sessionId) => make(sessionId), endSession: () => {} };
          const instance = make(null);
          // Awaited by each session; until then a rejection is not unhandled.
          instance.catch(() => {});
          return { forSession: () => instance, endSession: () => {} };
        },
      });
      // Open first: the run's patched clock and randomness are in place when the module's top level runs.
      const run = await inner.open(runOptions);
      try {
        factory = await source.factoryFor(runOptions.seed);
      } catch (error) {
        await run.close();
        if (error instanceof StoreModuleError) throw error;
        throw new StoreModuleError(`${where}: ${firstLine(error)}`);
      }
      return run;
    },
  };
}

/** The module target a name stands for (`resumecheck replay` of a check-store trace), or null for other names. */
export function moduleTargetFromName(name: string): ModuleTarget | null {
  const parsed = parseModuleTargetName(name);
  if (parsed === null) return null;
  if (parsed.ref.path === FUNCTION_SOURCE_LABEL) {
    throw new StoreModuleError(`target ${name}: the store was given to checkEventStore as a function, not a module; replay it with the same function through the library`);
  }
  checkStoreModulePath(parsed.ref);
  return createModuleTarget(moduleSource(parsed.ref), { shared: parsed.shared });
}
