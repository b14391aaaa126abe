// The entry of check-store's worker thread: a worker does not inherit the main thread's TypeScript loader, so it
// registers tsx itself (as bin/resumecheck.mjs does) and then runs the worker's code.
import { register } from 'tsx/esm/api';

register();
await import('./check-worker.ts');
