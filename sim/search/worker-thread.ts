// The one way resumecheck starts a worker thread (the fuzz's, the explorer's and the matrix's pools, check-store's
// contained check): on a module, from the compiled build or from TypeScript sources; under tsx the worker registers
// tsx's loader itself first (a loader registered in this thread does not reach others).

import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker on module `name` (without its extension) of the directory of `beside` (an `import.meta.url`),
 * handing it `workerData`; `options` as Node's (check-store's contained check keeps the store's output off the
 * terminal).
 */
export function startWorkerModule(beside: string, name: string, workerData: unknown, options: Omit<WorkerOptions, 'eval' | 'workerData'> = {}): Worker {
  if (beside.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, beside).href;
    // tsx as this module finds it: the worker's evaluated code resolves a bare name from the working directory, which
    // need not hold this checkout's node_modules (a run from another folder).
    const tsx = import.meta.resolve('tsx/esm/api');
    const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
    return new Worker(code, { ...options, eval: true, workerData });
  }
  return new Worker(new URL(`./${name}.js`, beside), { ...options, workerData });
}

/** A pool worker's failure before it said it was ready: it could not load what it was started on (it threw). */
export class WorkerLoadError extends Error {
  override readonly name = 'WorkerLoadError';
}

/** Starts a worker on this directory's module `name` (without its extension), handing it `workerData`. */
export function startWorkerThread(name: string, workerData: unknown): Worker {
  return startWorkerModule(import.meta.url, name, workerData);
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
 * Starts a pool worker on module `name`: its `{ kind: 'ready' }` settles `loaded`, its `{ kind: 'failed' }`, an
 * error or an exit fails the request it is answering (or the next one, which then fails at once), and every other
 * reply goes to the listener. `label` names it in an exit's message.
 */
export function startPoolWorker<Reply extends { readonly kind: string }>(name: string, workerData: unknown, label: string): PoolWorker<Reply> {
  let loadedNow = (): void => {};
  let loadFailed = (_error: Error): void => {};
  const loaded = new Promise<void>((resolve, reject) => {
    loadedNow = resolve;
    loadFailed = reject;
  });
  // Awaited only by a caller that waits for loading; a load failure also fails the request waiting.
  loaded.catch(() => undefined);
  const entry: PoolWorker<Reply> = { worker: startWorkerThread(name, workerData), loaded, listener: null, failure: null, dead: null };
  let ready = false;
  const fail = (error: Error): void => {
    entry.dead ??= error;
    loadFailed(error);
    entry.failure?.(error);
  };
  entry.worker.on('message', (reply: Reply) => {
    if (reply.kind === 'failed') {
      const message = (reply as unknown as { message: string }).message;
      fail(ready ? new Error(message) : new WorkerLoadError(message));
    } else if (reply.kind === 'ready') {
      ready = true;
      loadedNow();
    }
    else entry.listener?.(reply);
  });
  entry.worker.on('error', fail);
  entry.worker.on('exit', (code) => fail(new Error(`${label} exited with code ${code}`)));
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
