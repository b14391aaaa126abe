// The 1.32.2 client (`Client` with `StreamableHTTPClientTransport`) as the application of a client level run, with
// optional wrappers: the planted clients are the real one with its fetch or its reconnection options changed.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientApplication, ClientFactory, LevelFetch } from './client-application.ts';

/** How a planted client differs from the real one. */
export interface ClientVariant {
  /** Wraps the level's fetch (a client that drops its resumption token strips Last-Event-ID here). */
  readonly wrapFetch?: (fetch: LevelFetch) => LevelFetch;
  /** Reconnection options for the transport (a storming client never gives up). */
  readonly reconnectionOptions?: { readonly initialReconnectionDelay: number; readonly maxReconnectionDelay: number; readonly reconnectionDelayGrowFactor: number; readonly maxRetries: number };
}

/** The 1.32.2 client, as an application using it in the documented way would. */
export function sdkClientFactory(variant: ClientVariant = {}): ClientFactory {
  return (fetch, url): ClientApplication => {
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: variant.wrapFetch === undefined ? fetch : variant.wrapFetch(fetch),
      ...(variant.reconnectionOptions === undefined ? {} : { reconnectionOptions: { ...variant.reconnectionOptions } }),
    });
    const client = new Client({ name: 'resumecheck-application', version: '0.1.0' });
    // The transport reports every disconnect here; an application logs them, and so has nothing to do with them.
    client.onerror = () => undefined;
    return {
      connect: () => client.connect(transport),
      callTool: async (tool, callId) => {
        await client.callTool({ name: tool, arguments: { callId } });
      },
      close: () => client.close(),
    };
  };
}
