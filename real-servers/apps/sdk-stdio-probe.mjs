// The MCP SDK 1.32.2 over stdio with the probe tools (resumecheck/probe), for mcp-proxy to serve over HTTP, as its
// README fronts a stdio server: `mcp-proxy --port PORT -- node sdk-stdio-probe.mjs`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerProbeTools } from '../../dist/probe/probe-tools.js';

const server = new McpServer({ name: 'sdk-stdio-probe', version: '1.0.0' });
registerProbeTools(server);
await server.connect(new StdioServerTransport());
