// The targets that put the 2.x MCP TypeScript SDK (@modelcontextprotocol/server) under test, on the same harness
// as the 1.x targets (targets/sdk), each with its event store and its routing.

export { sdk2CoreTarget } from './sdk2-core.target.ts';
export { sdk2ExampleTarget } from './sdk2-example.target.ts';
export { sdk2SharedTarget } from './sdk2-shared.target.ts';
export { sdk2DualTarget } from './sdk2-dual.target.ts';
export { sdk2DualBareTarget } from './sdk2-dual-bare.target.ts';
export { sdk2ModernTarget } from './sdk2-modern.target.ts';
export { SDK2_PACKAGE, SDK_2_LINE } from './sdk2-line.ts';
