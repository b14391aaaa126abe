// Starting a worker thread on a module beside this one, from the compiled build or from TypeScript sources: under
// tsx the worker registers tsx's loader itself first (a loader registered in this thread does not reach others).

import { Worker } from 'node:worker_threads';

/** Starts a worker on this directory's module `name` (without its extension), handing it `workerData`. */
export function startWorkerThread(name: string, workerData: unknown): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, here).href;
    const code = `import { register } from 'tsx/esm/api'; register(); await import(${JSON.stringify(entry)});`;
    return new Worker(code, { eval: true, workerData });
  }
  return new Worker(new URL(`./${name}.js`, here), { workerData });
}
