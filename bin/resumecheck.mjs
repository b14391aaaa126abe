#!/usr/bin/env node
// The resumecheck command: runs the compiled CLI in dist/ (built by `npm run build`, on `prepare`, so on `npm ci` in a
// clone and before `npm pack`). No TypeScript is compiled at run time, except a user's own `.ts` store module (tsx).
const entry = new URL('../dist/cli/run.js', import.meta.url);
try {
  await import(entry.href);
} catch (error) {
  // Only a missing build is this file's to explain; anything else is the CLI's own failure and keeps its stack.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(entry.pathname)) throw error;
  process.stderr.write('resumecheck: the CLI is not built (dist/cli/run.js is missing); run `npm run build` in the package\n');
  process.exitCode = 2;
}
