// storeEvent IDs are unique within a session, also while calls overlap (MCP: globally unique within the session).

import { show } from '../../sim/levels/store-world.ts';
import { resolvedIds } from './event-ids.ts';
import type { StoreProperty } from './store-property.ts';

export const eventIdsUnique: StoreProperty = {
  name: 'event-ids-unique',
  statement:
    'storeEvent resolves to a non-empty string that no other storeEvent call of the same session got, on any of its streams, also while calls overlap; a session ID that an earlier incarnation issued counts as the same session (its old cursors must not name new events).',
  why: 'MCP: event IDs MUST be globally unique across all streams within a session; a repeated ID makes a cursor name two positions.',
  source: 'MCP transports: event IDs "MUST be globally unique across all streams within that session".',
  severity: 'failure',
  judge({ world }, report) {
    for (const call of world.storeCalls) {
      if (call.state === 'rejected') {
        report(call.step, `storeEvent of ${call.label} on the open stream ${call.stream.label} rejected: ${call.error} (the transport would fail the message)`);
      }
    }
    for (const resolved of resolvedIds(world)) {
      const { call } = resolved;
      if (resolved.invalid) {
        report(call.step, `storeEvent of ${call.label} resolved to ${show(call.value)}, not a non-empty string`);
        continue;
      }
      const same = resolved.sameSession;
      if (same === null) continue;
      const reused = same.stream.session !== call.stream.session ? ` (session ${same.stream.session.label} of incarnation ${same.stream.session.epoch} had the same session ID)` : '';
      report(call.step, `storeEvent of ${call.label} resolved to ${show(call.value)}, the ID storeEvent of ${same.label} already got in the same session${reused}`);
    }
  },
};
