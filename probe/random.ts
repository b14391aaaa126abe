// The served SDK app's own randomness: a real server's session IDs, as the SDK's examples make them. It is the
// server's, not the simulator's: over the wire, resumecheck observes session IDs and never depends on their values.

import { randomUUID } from 'node:crypto';

/** A fresh session ID. */
export function newSessionId(): string {
  return randomUUID();
}
