// The targets that put the real MCP TypeScript SDK under test, each with a different event store.

export { sdkTarget } from './sdk.target.ts';
export { sdkSharedTarget } from './sdk-shared.target.ts';
export { sdkCoreTarget } from './sdk-core.target.ts';
export { RETRY_INTERVAL_MS, type SdkEventStores, type SdkTargetSpec, createSdkTarget } from './sdk-server.ts';
