// The store level's properties, in the order violations are reported, and the judge of a drained run: every
// violation of every property, in property order, then by step.

import { STORE_PROPERTY_NAMES, type StorePropertyName } from '../names.ts';
import type { StoreWorld } from '../../sim/levels/store-world.ts';
import type { Violation } from '../../sim/world.ts';
import { callsSettle } from './calls-settle.ts';
import { eventIdsUnique } from './event-ids-unique.ts';
import { eventIdsUniqueAcrossSessions } from './event-ids-unique-across-sessions.ts';
import { noSilentSkip } from './no-silent-skip.ts';
import { readReplays } from './replay-reading.ts';
import { replayExact } from './replay-exact.ts';
import { resumesWithinWindow } from './resumes-within-window.ts';
import { sessionIsolation } from './session-isolation.ts';
import { storeCallsSucceed } from './store-calls-succeed.ts';
import type { StoreProperty } from './store-property.ts';
import { unknownCursorYieldsNothing } from './unknown-cursor-yields-nothing.ts';

export type { StoreProperty } from './store-property.ts';
export { SHARED_ISOLATION_NOTE } from './session-isolation.ts';

const byName: Record<StorePropertyName, StoreProperty> = {
  'calls-settle': callsSettle,
  'event-ids-unique': eventIdsUnique,
  'event-ids-unique-across-sessions': eventIdsUniqueAcrossSessions,
  'session-isolation': sessionIsolation,
  'unknown-cursor-yields-nothing': unknownCursorYieldsNothing,
  'no-silent-skip': noSilentSkip,
  'replay-exact': replayExact,
  'resumes-within-window': resumesWithinWindow,
  'store-calls-succeed': storeCallsSucceed,
};

/** Every store property, in report order. */
export const STORE_PROPERTIES: readonly StoreProperty[] = STORE_PROPERTY_NAMES.map((name) => byName[name]);

/** The properties the store level judges (every one but what check-store judges end to end), in report order. */
export const JUDGED_STORE_PROPERTIES: readonly StoreProperty[] = STORE_PROPERTIES.filter((property) => property.judge !== undefined);

/** A store property by name. */
export function storeProperty(name: StorePropertyName): StoreProperty {
  return byName[name];
}

/** Judges a drained run: every violation, in property order, then by the step whose call broke it. */
export function judgeStore(world: StoreWorld): Violation[] {
  const observed = { world, replays: readReplays(world) };
  const violations: Violation[] = [];
  for (const property of JUDGED_STORE_PROPERTIES) {
    const found: Violation[] = [];
    property.judge!(observed, (step, explanation) => {
      found.push({ property: property.name, step, explanation });
    });
    violations.push(...found.sort((left, right) => left.step - right.step));
  }
  return violations;
}
