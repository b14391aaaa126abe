// The event stores the probe server's SDK 1.x app (probe/sdk-app.ts) can be given, apart from the app, so the probe
// server's command line can check `--store` without loading the SDK.

/**
 * The stores the app may use: the example's, per session (as the SDK's resumable example) or shared (its polling
 * example), or none (as the SDK README's first server: no resumability, so no event IDs and no priming event); or one
 * in Redis at $REDIS_URL, shared by every process of a deployment (probe/redis-event-store.ts), scoped to each session
 * (`redis`) or keyed by stream alone (`redis-unscoped`, a planted bug).
 */
export const SDK_APP_STORES = ['per-session', 'shared', 'none', 'redis', 'redis-unscoped'] as const;
export type SdkAppStore = (typeof SDK_APP_STORES)[number];
