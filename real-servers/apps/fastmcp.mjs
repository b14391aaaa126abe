// fastmcp 4.20.16 as its README starts it (httpStream), with an echo tool. PORT names the port.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const server = new FastMCP({ name: 'fastmcp-echo', version: '1.0.0' });
server.addTool({ name: 'echo', description: 'Echoes its message', parameters: z.object({ message: z.string() }), execute: async (args) => `Echo: ${args.message}` });
server.start({ transportType: 'httpStream', httpStream: { port: Number(process.env.PORT), host: '127.0.0.1' } });
