// An echo tool in mcp-framework's shape (a class extending MCPTool, the default export of a file in tools/).
import { createRequire } from 'node:module';
import { MCPTool } from 'mcp-framework';

// mcp-framework 0.2.22 validates a tool's input with its own zod (3.x, its dependency: a project it scaffolds installs
// zod 3). A schema of another zod (4, which this folder's SDK apps use) fails every call ("keyValidator._parse is not
// a function"), so the schema is built with the zod mcp-framework itself loads.
const { z } = createRequire(import.meta.resolve('mcp-framework'))('zod');

class EchoTool extends MCPTool {
  name = 'echo';
  description = 'Echoes its message';
  schema = { message: { type: z.string(), description: 'The message to echo' } };

  async execute(input) {
    // A tool doing I/O answers a moment later; an instant one would answer before another session's request is read.
    const delayMs = Number(process.env.ECHO_DELAY_MS ?? 50);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return `Echo: ${input.message}`;
  }
}
export default EchoTool;
