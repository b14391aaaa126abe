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
