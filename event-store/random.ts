// The one place the event store draws entropy: the epoch token of a backend created without one.
// Simulations always pass their own epoch, so runs stay deterministic.

import { randomBytes } from 'node:crypto';

/** A fresh epoch token: 16 hex digits, unique per server incarnation with overwhelming probability. */
export function randomEpochToken(): string {
  return randomBytes(8).toString('hex');
}
