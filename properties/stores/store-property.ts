// What a property of the store level is: a name, one statement, why the SDK transport needs it, its source and its
// severity (properties/severity.ts), and a judge of a drained run. The store level (sim/levels/store-level.ts) reads
// each replay once (replay-reading.ts) and every property judges what it reads.

import type { StorePropertyName } from '../names.ts';
import type { Severity } from '../severity.ts';
import type { StoreWorld } from '../../sim/levels/store-world.ts';
import type { ReplayReading } from './replay-reading.ts';

/** A drained run as the properties judge it: its world, and each replay as the session that made it means it. */
export interface StoreObservations {
  readonly world: StoreWorld;
  readonly replays: readonly ReplayReading[];
}

/** Reports one violation: the step whose call broke the property, and what was expected against what happened. */
export type StoreReport = (step: number, explanation: string) => void;

/** A property of the EventStore contract. */
export interface StoreProperty {
  readonly name: StorePropertyName;
  /** One sentence: what must hold. */
  readonly statement: string;
  /** Why the transport needs it. */
  readonly why: string;
  /** The specification sentence, SDK contract or seed passage it comes from. */
  readonly source: string;
  /**
   * How much a violation weighs, following its source: an MCP MUST (or what the SDK transport needs of every store to
   * work at all) is a failure; an MCP SHOULD a warning; a seed's advice is advice.
   */
  readonly severity: Severity;
  /** Judges a drained run; absent for the property check-store judges end to end (store-calls-succeed). */
  readonly judge?: (observed: StoreObservations, report: StoreReport) => void;
}
