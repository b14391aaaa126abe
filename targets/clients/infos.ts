// The client targets' descriptions, without their code: the registry lists them without loading either SDK.

import type { TargetInfo } from '../target.ts';

/** Every client target, by key. */
export const CLIENT_TARGET_INFOS = {
  clientSdk: {
    name: 'client-sdk',
    kind: 'client',
    description: 'the SDK 1.32.2 client (Client + StreamableHTTPClientTransport) against the reference server, through its fetch option, timers on the simulated clock',
    breaks: [],
  },
  clientSdkDropsToken: {
    name: 'client-sdk-drops-token',
    kind: 'planted',
    description: 'planted: the 1.32.2 client with Last-Event-ID stripped from its requests (it drops its resumption token)',
    breaks: ['client-resumes-latest'],
  },
  clientSdkStorm: {
    name: 'client-sdk-storm',
    kind: 'planted',
    description: 'planted: the 1.32.2 client reconnecting without bound (maxRetries unbounded, 1 s apart)',
    breaks: ['client-reconnects-bounded'],
  },
  clientSdk2: {
    name: 'client-sdk2',
    kind: 'client',
    description: 'the @modelcontextprotocol/client 2.4.0 client (Client + StreamableHTTPClientTransport) against the reference server, through its fetch option, timers on the simulated clock',
    breaks: [],
  },
  clientSdk2DropsToken: {
    name: 'client-sdk2-drops-token',
    kind: 'planted',
    description: 'planted: the 2.4.0 client with Last-Event-ID stripped from its requests (it drops its resumption token)',
    breaks: ['client-resumes-latest'],
  },
  clientSdk2Storm: {
    name: 'client-sdk2-storm',
    kind: 'planted',
    description: 'planted: the 2.4.0 client reconnecting without bound (maxRetries unbounded, 1 s apart)',
    breaks: ['client-reconnects-bounded'],
  },
} as const satisfies Record<string, TargetInfo>;

/** A client target's key in CLIENT_TARGET_INFOS. */
export type ClientTargetKey = keyof typeof CLIENT_TARGET_INFOS;
