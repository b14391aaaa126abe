// The targets that put the real MCP TypeScript SDK under test, each with a different event store.

export { sdkTarget } from './sdk.target.ts';
export { sdkSharedTarget } from './sdk-shared.target.ts';
export { sdkCoreTarget } from './sdk-core.target.ts';
export {
  RETRY_INTERVAL_MS,
  SDK_1_LINE,
  SERVER_INFO,
  type ModernEndpoint,
  type SdkEventStores,
  type SdkLine,
  type SdkRouting,
  type SdkTargetSpec,
  type ToolRunner,
  createSdkTarget,
} from './sdk-server.ts';
