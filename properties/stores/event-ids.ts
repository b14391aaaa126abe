// The IDs storeEvent resolved to, in resolution order, checked within each session (what MCP requires). Shared by
// event-ids-unique and event-ids-unique-across-sessions.

import type { StoreCall, StoreWorld } from '../../sim/levels/store-world.ts';

/**
 * A resolved storeEvent call: `invalid` when it resolved to anything but a non-empty string; else the call of the same
 * session that got its ID first (null when none did).
 */
export type ResolvedId = { readonly call: StoreCall; readonly invalid: true } | { readonly call: StoreCall; readonly invalid: false; readonly sameSession: StoreCall | null };

/** The storeEvent calls that resolved, in resolution order. */
export function resolvedIds(world: StoreWorld): ResolvedId[] {
  const resolved = world.storeCalls.filter((call) => call.state === 'resolved').sort((left, right) => (left.event?.order ?? Infinity) - (right.event?.order ?? Infinity));
  // A session ID an earlier incarnation issued is the same session to a client holding its old cursors.
  const bySession = new Map<string, Map<string, StoreCall>>();
  return resolved.map((call): ResolvedId => {
    if (typeof call.value !== 'string' || call.value === '') return { call, invalid: true };
    const sessionId = call.stream.session.id;
    const mine = bySession.get(sessionId) ?? new Map<string, StoreCall>();
    bySession.set(sessionId, mine);
    const same = mine.get(call.value) ?? null;
    if (same === null) mine.set(call.value, call);
    return { call, invalid: false, sameSession: same };
  });
}
