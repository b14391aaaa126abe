// The one way resumecheck starts a worker thread (the fuzz's, the explorer's and the matrix's pools, check-store's
// contained check, which runs in a fuzz worker): on a module, from the compiled build or from TypeScript sources. A
// process run from the sources starts its workers on the compiled build when dist/ is current (compiledTwin), else on
// the sources, where the worker registers tsx's loader itself first (a loader registered in this thread does not
// reach others).

import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker on module `name` (without its extension) of the directory of `beside` (an `import.meta.url`),
 * handing it `workerData`; `options` as Node's (check-store's contained check keeps the store's output off the
 * terminal).
 */
export function startWorkerModule(beside: string, name: string, workerData: unknown, options: Omit<WorkerOptions, 'eval' | 'workerData'> = {}): Worker {
  if (beside.endsWith('.ts')) {
    const source = new URL(`./${name}.ts`, beside);
    const compiled = compiledTwin(source);
    if (compiled !== null) return new Worker(compiled, { ...options, workerData });
    const entry = source.href;
    // tsx as this module finds it: the worker's evaluated code resolves a bare name from the working directory, which
    // need not hold this checkout's node_modules (a run from another folder).
    const tsx = import.meta.resolve('tsx/esm/api');
    const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
    return new Worker(code, { ...options, eval: true, workerData });
  }
  return new Worker(new URL(`./${name}.js`, beside), { ...options, workerData });
}

/**
 * The compiled build of source module `source`, when a worker started from the TypeScript sources may run it instead:
 * the package's dist/ holds it and is current, that is no source file compiled into dist/ was changed after its
 * compiled file was written (`npm test` builds first; `npm run build` after an edit makes it current again). The same
 * code, loaded without tsx's transform: a worker of the explorer loads in about 190 ms instead of about 575 ms, and the
 * suite starts hundreds. Null (run the sources) when dist/ is missing or behind, or with RESUMECHECK_WORKER_SOURCES=1
 * (what the test of the sources' worker loader sets). Looked up at every start: a source edited while a process runs
 * sends the next worker back to the sources.
 */
export function compiledTwin(source: URL): URL | null {
  if (process.env['RESUMECHECK_WORKER_SOURCES'] === '1' || source.protocol !== 'file:') return null;
  const sourcePath = fileURLToPath(source);
  // The package root: the nearest folder above with a package.json.
  let root = dirname(sourcePath);
  while (!existsSync(join(root, 'package.json'))) {
    const up = dirname(root);
    if (up === root) return null;
    root = up;
  }
  const dist = join(root, 'dist');
  const twin = join(dist, relative(root, sourcePath)).replace(/\.ts$/, '.js');
  if (!existsSync(twin) || !distIsCurrent(root, dist)) return null;
  return pathToFileURL(twin);
}

/**
 * True when every .js file under `dist` is at least as new as its source under `root` (a file without one: no matter).
 * False when dist/ cannot be read so: a build emptying it meanwhile, or a Node 20 before 20.12 (which names a listed
 * file's folder `path`, not `parentPath`).
 */
function distIsCurrent(root: string, dist: string): boolean {
  try {
    for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      if (typeof entry.parentPath !== 'string') return false;
      const compiled = join(entry.parentPath, entry.name);
      const source = join(root, relative(dist, compiled)).replace(/\.js$/, '.ts');
      // A compiled file without a source of that name (a generated one): nothing to compare.
      if (!existsSync(source)) continue;
      if (statSync(source).mtimeMs > statSync(compiled).mtimeMs) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** A pool worker's failure before it said it was ready: it could not load what it was started on (it threw). */
export class WorkerLoadError extends Error {
  override readonly name = 'WorkerLoadError';
}

/** A pool worker's failure once it had loaded: the request it was answering threw (its message is the stack). */
export class WorkerTaskError extends Error {
  override readonly name = 'WorkerTaskError';
}

/** A pool worker's thread ended (process.exit in the code it ran, or the like), with exit code `code`. */
export class WorkerExitError extends Error {
  override readonly name = 'WorkerExitError';
  constructor(
    label: string,
    readonly code: number,
  ) {
    super(`${label} exited with code ${code}`);
  }
}

/** Starts a worker on this directory's module `name` (without its extension), handing it `workerData`. */
export function startWorkerThread(name: string, workerData: unknown, options: Omit<WorkerOptions, 'eval' | 'workerData'> = {}): Worker {
  return startWorkerModule(import.meta.url, name, workerData, options);
}

/** A started pool worker: its thread, whether it has loaded, and the request it is answering. */
export interface PoolWorker<Reply> {
  readonly worker: Worker;
  /** Settles once the worker has loaded the simulator and the target (or failed to). */
  readonly loaded: Promise<void>;
  listener: ((reply: Reply) => void) | null;
  failure: ((error: Error) => void) | null;
  /** Why the worker can answer nothing more (it failed or exited), once it cannot. */
  dead: Error | null;
}

/**
 * Starts a pool worker on module `name`: its `{ kind: 'ready' }` settles `loaded`, its `{ kind: 'failed' }` (a
 * WorkerLoadError before it, a WorkerTaskError after), an uncaught error or an exit (WorkerExitError) fails the
 * request it is answering (or the next one, which then fails at once), and every other reply goes to the listener.
 * `label` names it in an exit's message; `options` as Node's (`stdout: false` keeps a user's module off the terminal).
 */
export function startPoolWorker<Reply extends { readonly kind: string }>(name: string, workerData: unknown, label: string, options: Omit<WorkerOptions, 'eval' | 'workerData'> = {}): PoolWorker<Reply> {
  let loadedNow = (): void => {};
  let loadFailed = (_error: Error): void => {};
  const loaded = new Promise<void>((resolve, reject) => {
    loadedNow = resolve;
    loadFailed = reject;
  });
  // Awaited only by a caller that waits for loading; a load failure also fails the request waiting.
  loaded.catch(() => undefined);
  const entry: PoolWorker<Reply> = { worker: startWorkerThread(name, workerData, options), loaded, listener: null, failure: null, dead: null };
  let ready = false;
  const fail = (error: Error): void => {
    entry.dead ??= error;
    loadFailed(error);
    entry.failure?.(error);
  };
  entry.worker.on('message', (reply: Reply) => {
    if (reply.kind === 'failed') {
      const message = (reply as unknown as { message: string }).message;
      fail(ready ? new WorkerTaskError(message) : new WorkerLoadError(message));
    } else if (reply.kind === 'ready') {
      ready = true;
      loadedNow();
    }
    else entry.listener?.(reply);
  });
  entry.worker.on('error', fail);
  entry.worker.on('exit', (code) => fail(new WorkerExitError(label, code)));
  return entry;
}

/**
 * Sends a pool worker one request and resolves with what `onReply` makes of its replies; the worker's failure or exit
 * rejects it (at once if it is dead already). A worker still loading keeps the message until it listens.
 */
export function askPoolWorker<Reply, T>(entry: PoolWorker<Reply>, request: unknown, onReply: (reply: Reply, resolve: (value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (entry.dead !== null) {
      reject(entry.dead);
      return;
    }
    entry.failure = reject;
    entry.listener = (reply) => onReply(reply, resolve);
    entry.worker.postMessage(request);
  });
}

/** Stops a pool's workers: nothing more is listened for, and a late request fails as answered by a closed worker. */
export async function closePoolWorkers<Reply>(workers: readonly PoolWorker<Reply>[], label: string): Promise<void> {
  for (const entry of workers) {
    entry.failure = null;
    entry.listener = null;
    entry.dead ??= new Error(`${label} closed`);
  }
  await Promise.all(workers.map((entry) => entry.worker.terminate()));
}
