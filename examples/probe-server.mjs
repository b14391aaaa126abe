#!/usr/bin/env node
// A server for resumecheck to check over the wire: a built-in target (the reference, or a planted bug) or the real
// MCP SDK app, with the probe tools (docs/probe-tools.md), on 127.0.0.1:$PORT. For example:
//   npx resumecheck fuzz --serve "node examples/probe-server.mjs --target no-owner-check" --runs 20
//   PORT=3000 node examples/probe-server.mjs --sdk --store shared & npx resumecheck fuzz --url http://127.0.0.1:3000/mcp
// In a clone (the TypeScript sources beside it) it runs the sources through tsx's loader, so it is never staler than
// they are; in an installed package (no sources, maybe no tsx) it runs the compiled code in dist/.

import { existsSync } from 'node:fs';

const source = new URL('../probe/probe-server-main.ts', import.meta.url);
const compiled = new URL('../dist/probe/probe-server-main.js', import.meta.url);
let entry = compiled;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
} else if (!existsSync(compiled)) {
  process.stderr.write('probe server: neither the sources nor the build (dist/probe/probe-server-main.js) are here; run `npm run build`\n');
  process.exit(2);
}
const { runProbeServer } = await import(entry.href);
await runProbeServer(process.argv.slice(2), process.env);
