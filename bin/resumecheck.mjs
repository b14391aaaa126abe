#!/usr/bin/env node
// The resumecheck command: loads the TypeScript CLI through tsx, so a fresh clone runs after `npm ci`.
import { register } from 'tsx/esm/api';

// A reader that goes away (`| head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
