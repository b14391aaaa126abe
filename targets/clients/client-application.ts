// The adapter between the client level and a real client: an application that connects, calls the simulator's
// tools, and closes, using a client library whose every HTTP exchange goes through the `fetch` the level gives it.

import type { ToolName } from '../target.ts';

/** The `fetch` a client library is given: the level's network. */
export type LevelFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** An application using one client library, as the level drives it. */
export interface ClientApplication {
  /** Connects (initialize, then the initialized notification). */
  connect(): Promise<void>;
  /** Calls one of the simulator's tools; resolves with the result, rejects with the client's error (or timeout). */
  callTool(tool: ToolName, callId: string): Promise<void>;
  /** Closes the client (aborting what it has open). */
  close(): Promise<void>;
}

/** Builds the application of one run, talking to `url` through `fetch`. Called with the run's clock in place. */
export type ClientFactory = (fetch: LevelFetch, url: URL) => ClientApplication | Promise<ClientApplication>;

/** The endpoint the level's network serves (no socket is opened: every exchange stays in process). */
export const CLIENT_LEVEL_URL = 'http://127.0.0.1:8080/mcp';

/** What an application needs of either SDK line's `Client`. */
export interface SdkClientLike {
  onerror?: (error: Error) => void;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** An application using an SDK `Client` in the documented way; `connect` connects it to its transport. */
export function sdkApplication(client: SdkClientLike, connect: () => Promise<void>): ClientApplication {
  // The transport reports every disconnect here; an application logs them, and so has nothing to do with them.
  client.onerror = () => undefined;
  return {
    connect,
    callTool: async (tool, callId) => {
      await client.callTool({ name: tool, arguments: { callId } });
    },
    close: () => client.close(),
  };
}

/** How a planted client differs from the real one. */
export interface ClientVariant {
  /** Wraps the level's fetch (a client that drops its resumption token strips Last-Event-ID here). */
  readonly wrapFetch?: (fetch: LevelFetch) => LevelFetch;
  /** Reconnection options for the transport (a storming client never gives up). */
  readonly reconnectionOptions?: { readonly initialReconnectionDelay: number; readonly maxReconnectionDelay: number; readonly reconnectionDelayGrowFactor: number; readonly maxRetries: number };
}

/** The options both SDK lines' `StreamableHTTPClientTransport` take for a variant: its fetch, its reconnection options. */
export function transportOptions(fetch: LevelFetch, variant: ClientVariant): { fetch: LevelFetch; reconnectionOptions?: NonNullable<ClientVariant['reconnectionOptions']> } {
  return {
    fetch: variant.wrapFetch === undefined ? fetch : variant.wrapFetch(fetch),
    ...(variant.reconnectionOptions === undefined ? {} : { reconnectionOptions: { ...variant.reconnectionOptions } }),
  };
}
