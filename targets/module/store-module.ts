// A server author's EventStore module: what it must export (a factory), how it is found, imported (fresh for each
// simulated world, so state kept in the module starts empty) and checked before anything runs. Every way the
// module can be unusable is bad input: one line, exit 2.

import { existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { UsageError } from '../../cli/usage-error.ts';
import { withTimeout } from './clock.ts';
import { TypeScriptLoaderMissing, importUserModule } from './typescript-loader.ts';

/** What the factory is told each time it is called. */
export interface StoreContext {
  /** The session the store is for; null with `--shared`, where one instance serves every session of an incarnation. */
  readonly sessionId: string | null;
  /** The server incarnation: 1, then 2, 3, ... after each simulated restart (0 for the probe call). */
  readonly epoch: number;
  /** True with `--shared`. */
  readonly shared: boolean;
  /** True with `--durable`: the checker treats storage and sessions as outliving restarts. */
  readonly durable: boolean;
  /**
   * Registers a hook the checker calls (and awaits, within the call timeout) when the simulated run is over, after
   * every call of the run has settled: close connections, timers and files here. A module may also export `close()`,
   * called at the same time (see check-store/README.md, "Teardown").
   */
  readonly onRunEnd: (hook: () => unknown) => void;
  /**
   * The retention the checker expects: a cursor with at most this many events after it on its open stream must be
   * replayed. A store may use it as its window; one that keeps more is fine too.
   */
  readonly windowEventsMax: number;
  /**
   * Names the simulated world (the run's seed). A module imported by path is imported afresh for each world, so its
   * module-level state starts empty; a factory given as a function keeps its state across worlds unless it keys it by this.
   */
  readonly world: string;
}

/** A server author's store factory: called once per session per incarnation (once per incarnation with `--shared`). */
export type EventStoreFactory = (context: StoreContext) => EventStore | Promise<EventStore>;

/** Where a store module is: a path (relative to the working directory, or absolute) and the export to use. */
export interface StoreModuleRef {
  readonly path: string;
  /** The named export holding the factory; null for the default export. */
  readonly exportName: string | null;
}

/** The store module cannot be used: bad input, printed as one line (exit 2). */
export class StoreModuleError extends UsageError {}

const EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);
const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/** The first line of an error's message, for one-line reports. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return (text.split('\n')[0] ?? '').trim() || 'no message';
}

/** How a path is written in target names and traces: relative to the working directory when inside it, with '/'. */
export function displayPath(path: string): string {
  const absolute = resolve(path);
  const inside = relative(process.cwd(), absolute);
  const shown = inside === '' || inside.startsWith('..') || isAbsolute(inside) ? absolute : inside;
  return shown.split(sep).join('/');
}

/** Checks that a module reference names a file that can be imported; returns its absolute path. */
export function checkStoreModulePath(ref: StoreModuleRef): string {
  if (ref.path.trim() === '') throw new StoreModuleError('check-store needs a MODULE: the path of a .js, .mjs or .ts file');
  if (ref.exportName !== null && !EXPORT_NAME.test(ref.exportName)) {
    throw new StoreModuleError(`--export takes a JavaScript identifier, got ${JSON.stringify(ref.exportName)}`);
  }
  const absolute = resolve(ref.path);
  if (!existsSync(absolute)) throw new StoreModuleError(`${ref.path}: no such file`);
  if (!statSync(absolute).isFile()) throw new StoreModuleError(`${ref.path}: not a file`);
  if (!EXTENSIONS.has(extname(absolute))) throw new StoreModuleError(`${ref.path}: a store module must be a .js, .mjs or .ts file`);
  return absolute;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

function exportLabel(ref: StoreModuleRef): string {
  return ref.exportName === null ? 'the default export' : `export ${ref.exportName}`;
}

// The loader's module map is process-wide, so the count that keeps fresh imports apart is too: it only makes each URL
// new, and nothing a run does depends on its value.
let freshImports = 0;

/** What a store module gives a simulated world: its factory and, if it exports one, its `close()`. */
export interface StoreModuleExports {
  readonly factory: EventStoreFactory;
  readonly close: (() => unknown) | null;
}

/**
 * Imports the module and returns its factory. `fresh` (a label, e.g. the world's seed) makes a new module instance
 * (a URL query never used before in this process), so state the module keeps starts empty; null imports the cached
 * instance.
 */
export async function importStoreFactory(ref: StoreModuleRef, fresh: string | null): Promise<EventStoreFactory> {
  return (await importStoreModule(ref, fresh)).factory;
}

/** Imports the module: its factory (checked as {@link importStoreFactory} does) and its optional `close` export. */
export async function importStoreModule(ref: StoreModuleRef, fresh: string | null): Promise<StoreModuleExports> {
  const absolute = checkStoreModulePath(ref);
  freshImports += 1;
  const url = pathToFileURL(absolute).href + (fresh === null ? '' : `?resumecheck-world=${encodeURIComponent(fresh)}&import=${freshImports}`);
  let namespace: Record<string, unknown>;
  try {
    namespace = await importUserModule(url, absolute);
  } catch (error) {
    if (error instanceof TypeScriptLoaderMissing) throw new StoreModuleError(`${ref.path}: ${error.message}`);
    throw new StoreModuleError(`${ref.path}: importing it threw: ${firstLine(error)}`);
  }
  const name = ref.exportName ?? 'default';
  if (!(name in namespace)) {
    const names = Object.keys(namespace).filter((key) => key !== 'default');
    const known = names.length === 0 ? 'it has no named exports' : `its exports: ${names.join(', ')}`;
    throw new StoreModuleError(`${ref.path}: has no ${ref.exportName === null ? 'default export' : `export named ${ref.exportName}`} (${known}); give the factory's export with --export NAME`);
  }
  const value = namespace[name];
  if (typeof value !== 'function') {
    throw new StoreModuleError(`${ref.path}: ${exportLabel(ref)} is ${describeValue(value)}, not a factory function (context) => EventStore`);
  }
  if (/^class\b/.test(Function.prototype.toString.call(value))) {
    throw new StoreModuleError(`${ref.path}: ${exportLabel(ref)} is a class; export a factory such as (context) => new ${value.name || 'Store'}()`);
  }
  const close = namespace['close'];
  if (close !== undefined && typeof close !== 'function') throw new StoreModuleError(`${ref.path}: its export close is ${describeValue(close)}, not a function`);
  return { factory: value as EventStoreFactory, close: (close as (() => unknown) | undefined) ?? null };
}

/**
 * Checks what a factory returned: an object with `storeEvent` and `replayEventsAfter` functions (and
 * `getStreamIdForEventId`, if present, a function). `where` names the factory in the message.
 */
export function requireEventStore(value: unknown, where: string): EventStore {
  if (typeof value !== 'object' || value === null) {
    throw new StoreModuleError(`${where}: the factory returned ${describeValue(value)}, not an EventStore`);
  }
  const record = value as Record<string, unknown>;
  const missing = ['storeEvent', 'replayEventsAfter'].filter((method) => typeof record[method] !== 'function');
  if (missing.length > 0) {
    throw new StoreModuleError(`${where}: the factory's result lacks ${missing.join(' and ')} (an EventStore has storeEvent(streamId, message) and replayEventsAfter(lastEventId, { send }))`);
  }
  if (record['getStreamIdForEventId'] !== undefined && typeof record['getStreamIdForEventId'] !== 'function') {
    throw new StoreModuleError(`${where}: the factory's result has a getStreamIdForEventId that is not a function`);
  }
  return value as EventStore;
}

/** A factory's context as data, for messages (the hook is left out). */
export function describeContext(context: StoreContext): string {
  const { onRunEnd: _hook, ...data } = context;
  return JSON.stringify(data);
}

/**
 * Calls the factory and checks its result; a throw, a rejection or (with `timeoutMs`) a factory that does not settle
 * in that many real milliseconds is bad input too.
 */
export async function callFactory(factory: EventStoreFactory, context: StoreContext, where: string, timeoutMs: number | null = null): Promise<EventStore> {
  let value: unknown;
  try {
    const pending = Promise.resolve().then(() => factory(context));
    value = await (timeoutMs === null
      ? pending
      : withTimeout(pending, timeoutMs, () => new StoreModuleError(`${where}: the factory did not settle within ${timeoutMs} ms when called with ${describeContext(context)}`)));
  } catch (error) {
    if (error instanceof StoreModuleError) throw error;
    throw new StoreModuleError(`${where}: the factory threw when called with ${describeContext(context)}: ${firstLine(error)}`);
  }
  return requireEventStore(value, where);
}

/** The context of the probe call made before any checking. */
export function probeContext(options: { shared: boolean; durable: boolean; windowEventsMax: number; onRunEnd: (hook: () => unknown) => void }): StoreContext {
  return {
    sessionId: options.shared ? null : 'resumecheck-probe',
    epoch: 0,
    shared: options.shared,
    durable: options.durable,
    windowEventsMax: options.windowEventsMax,
    world: 'probe',
    onRunEnd: options.onRunEnd,
  };
}
