// mcp-framework 0.2.22 as its README serves it over HTTP (transport "http-stream", its defaults: batch responses,
// sessions on, resumability off), its tools loaded from ./tools (an echo). PORT names the port.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MCPServer } from 'mcp-framework';

const server = new MCPServer({ basePath: dirname(fileURLToPath(import.meta.url)), transport: { type: 'http-stream', options: { port: Number(process.env.PORT), endpoint: '/mcp' } } });
await server.start();
