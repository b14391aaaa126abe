// The 1.32.2 client targets: the real client, and its two planted variants.

import { installedVersion } from '../sdk/installed-version.ts';
import type { Target } from '../target.ts';
import { clientTarget } from './client-target.ts';
import { CLIENT_TARGET_INFOS } from './infos.ts';
import { DROPS_TOKEN, RECONNECTS_UNBOUNDED } from './planted-variants.ts';
import { sdkClientFactory } from './sdk-client.ts';

/** The client package as installed, recorded in every trace of these targets. */
const SDK_1 = `@modelcontextprotocol/sdk@${installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/client/index.js')}`;

/** The SDK 1.32.2 client. */
export const clientSdkTarget: Target = clientTarget(CLIENT_TARGET_INFOS.clientSdk, sdkClientFactory(), SDK_1);
/** Planted: 1.32.2 with its resumption token dropped. */
export const clientSdkDropsTokenTarget: Target = clientTarget(CLIENT_TARGET_INFOS.clientSdkDropsToken, sdkClientFactory(DROPS_TOKEN), SDK_1);
/** Planted: 1.32.2 reconnecting without bound. */
export const clientSdkStormTarget: Target = clientTarget(CLIENT_TARGET_INFOS.clientSdkStorm, sdkClientFactory(RECONNECTS_UNBOUNDED), SDK_1);
