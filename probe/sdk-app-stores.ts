// The event stores the probe server's SDK 1.x app (probe/sdk-app.ts) can be given, apart from the app, so the probe
// server's command line can check `--store` without loading the SDK.

/** The stores the app may use: the example's, per session (as the SDK's resumable example) or shared (its polling example). */
export const SDK_APP_STORES = ['per-session', 'shared'] as const;
export type SdkAppStore = (typeof SDK_APP_STORES)[number];
