// The process entry of the command: `bin/resumecheck.mjs` runs its compiled form (dist/cli/run.js); `tsx cli/run.ts`
// runs it from the sources. Everything else lives in main.ts, which tests call in-process.

import { main } from './main.ts';

// A reader that goes away (`| head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
process.exitCode = await main(process.argv.slice(2));
