// An echo tool in mcp-framework's shape (a class extending MCPTool, the default export of a file in tools/).
import { MCPTool } from 'mcp-framework';
import { z } from 'zod';

class EchoTool extends MCPTool {
  name = 'echo';
  description = 'Echoes its message';
  schema = { message: { type: z.string(), description: 'The message to echo' } };

  async execute(input) {
    return `Echo: ${input.message}`;
  }
}
export default EchoTool;
