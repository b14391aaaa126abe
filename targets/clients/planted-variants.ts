// The planted clients: the real clients with one thing changed, each a defect seen in the field. The client
// properties must catch each, and the shrinker must reduce each to a short trace.

import type { ClientVariant, LevelFetch } from './client-application.ts';

/** Strips Last-Event-ID from every request: the client resumes a broken stream as a new one (its token dropped). */
export function dropResumptionToken(fetch: LevelFetch): LevelFetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('last-event-id');
    return fetch(input, { ...init, headers });
  };
}

/** A client that loses its resumption token on the way out. */
export const DROPS_TOKEN: ClientVariant = { wrapFetch: dropResumptionToken };

/** A client that never gives up reconnecting (a second apart), as rmcp's did at 1 Hz (FIELD.md, rmcp #958). */
export const RECONNECTS_UNBOUNDED: ClientVariant = {
  reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1, maxRetries: Number.MAX_SAFE_INTEGER },
};
