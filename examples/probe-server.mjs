#!/usr/bin/env node
// A server for resumecheck to check over the wire: a built-in target (the reference, or a planted bug) or the real
// MCP SDK app, with the probe tools (docs/probe-tools.md), on 127.0.0.1:$PORT. For example:
//   npx resumecheck fuzz --serve "node examples/probe-server.mjs --target no-owner-check" --runs 20
//   PORT=3000 node examples/probe-server.mjs --sdk --store shared & npx resumecheck fuzz --url http://127.0.0.1:3000/mcp
// It runs the compiled code in dist/ when that is at least as new as every TypeScript source beside it (resumecheck
// starts it again at each restart, and loading the sources through tsx's loader costs about a second each time); in a
// clone whose sources changed since the last `npm run build`, it runs the sources through tsx, so it is never staler
// than they are; in an installed package (no sources, maybe no tsx) it runs dist/.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = new URL('../probe/probe-server-main.ts', import.meta.url);
const compiled = new URL('../dist/probe/probe-server-main.js', import.meta.url);
/** What the build compiles (tsconfig.build.json's include), whose sources dist/ must be at least as new as. */
const BUILT = ['index.ts', 'core', 'model', 'sim', 'targets', 'probe', 'properties', 'traces', 'cli', 'event-store', 'check-store'];

/** The latest modification time of a TypeScript source (tests aside) under `path`, bounded in depth. */
function newestSourceMs(path, depth) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (stat.isFile()) return path.endsWith('.ts') && !path.endsWith('.test.ts') ? stat.mtimeMs : 0;
  if (!stat.isDirectory() || depth > 6) return 0;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestSourceMs(`${path}/${entry}`, depth + 1));
  }
  return newest;
}

let entry = compiled;
if (existsSync(source)) {
  const builtMs = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
  const sourcesMs = Math.max(...BUILT.map((name) => newestSourceMs(`${root}${name}`, 0)));
  if (builtMs === 0 || sourcesMs > builtMs) {
    const { register } = await import('tsx/esm/api');
    register();
    entry = source;
  }
} else if (!existsSync(compiled)) {
  process.stderr.write('probe server: neither the sources nor the build (dist/probe/probe-server-main.js) are here; run `npm run build`\n');
  process.exit(2);
}
const { runProbeServer } = await import(entry.href);
await runProbeServer(process.argv.slice(2), process.env);
