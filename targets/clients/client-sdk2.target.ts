// The 2.4.0 client targets: the real client, and its two planted variants.

import { installedVersion } from '../sdk/installed-version.ts';
import type { Target } from '../target.ts';
import { clientTarget } from './client-target.ts';
import { CLIENT_TARGET_INFOS } from './infos.ts';
import { DROPS_TOKEN, RECONNECTS_UNBOUNDED } from './planted-variants.ts';
import { sdk2ClientFactory } from './sdk2-client.ts';

/** The client package as installed, recorded in every trace of these targets. */
const SDK_2 = `@modelcontextprotocol/client@${installedVersion('@modelcontextprotocol/client', '@modelcontextprotocol/client')}`;

/** The @modelcontextprotocol/client 2.4.0 client. */
export const clientSdk2Target: Target = clientTarget(CLIENT_TARGET_INFOS.clientSdk2, sdk2ClientFactory(), SDK_2);
/** Planted: 2.4.0 with its resumption token dropped. */
export const clientSdk2DropsTokenTarget: Target = clientTarget(CLIENT_TARGET_INFOS.clientSdk2DropsToken, sdk2ClientFactory(DROPS_TOKEN), SDK_2);
/** Planted: 2.4.0 reconnecting without bound. */
export const clientSdk2StormTarget: Target = clientTarget(CLIENT_TARGET_INFOS.clientSdk2Storm, sdk2ClientFactory(RECONNECTS_UNBOUNDED), SDK_2);
