#!/usr/bin/env node
// A server for resumecheck to check over the wire: a built-in target (the reference, or a planted bug) or the real
// MCP SDK app, with the probe tools (docs/probe-tools.md), on 127.0.0.1:$PORT. For example:
//   npx resumecheck fuzz --serve "node examples/probe-server.mjs --target no-owner-check" --runs 20
//   PORT=3000 node examples/probe-server.mjs --sdk --store shared & npx resumecheck fuzz --url http://127.0.0.1:3000/mcp
// The project's sources are TypeScript: tsx's loader is registered first, so plain `node` runs this file.

import { register } from 'tsx/esm/api';

register();
const { runProbeServer } = await import('../probe/probe-server-main.ts');
await runProbeServer(process.argv.slice(2), process.env);
