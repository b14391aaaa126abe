// storeEvent IDs are unique across sessions too: advice (seed 000), since MCP asks uniqueness within a session only.

import type { StoreCall } from '../../sim/levels/store-world.ts';
import { show } from '../../sim/levels/store-world.ts';
import { resolvedIds } from './event-ids.ts';
import type { StoreProperty } from './store-property.ts';

export const eventIdsUniqueAcrossSessions: StoreProperty = {
  name: 'event-ids-unique-across-sessions',
  statement: 'storeEvent resolves to an ID no call of another session got (IDs unique within their session are all MCP requires; this is advice).',
  why: 'An ID that names a position in two sessions is harmless to a store scoped by session, but a store or proxy that looks events up by ID alone then has two candidates.',
  source: 'Seed 000: "Embed a stream generation (epoch) into the event ID namespace" (advice; MCP requires uniqueness within a session only).',
  severity: 'advice',
  judge({ world }, report) {
    // Reported once a run: a per-session counter repeats every ID, and one instance says what there is to say.
    const owners = new Map<string, StoreCall>();
    for (const resolved of resolvedIds(world)) {
      if (resolved.invalid || resolved.sameSession !== null) continue;
      const { call } = resolved;
      const value = call.value as string;
      const other = owners.get(value);
      if (other === undefined) {
        owners.set(value, call);
        continue;
      }
      report(call.step, `storeEvent of ${call.label} resolved to ${show(value)}, the ID ${other.label} of session ${other.stream.session.label} got: unique within each session, as MCP requires, but not across sessions`);
      return;
    }
  },
};
