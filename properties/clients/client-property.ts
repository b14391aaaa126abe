// What a client property is: a name, a statement, its source and severity, the protocol revisions it applies to, and
// monitors over what a client sends and receives on the network the client level plays (never over its internals).

import type { ClientWorld, Exchange } from '../../sim/levels/client-world.ts';
import type { PropertyName } from '../names.ts';

import type { Severity } from '../severity.ts';
import type { Source } from '../source.ts';

export type { Severity } from '../severity.ts';

/** The protocol revisions with sessions and SSE resumption (2026-07-28 removed both). */
export const SESSION_REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** An invariant on what a client does. Each hook returns an explanation when it sees a violation, else null. */
export interface ClientProperty {
  readonly name: PropertyName;
  readonly statement: string;
  /** The specification sentence, seed passage or design rule it comes from; its keyword is the severity. */
  readonly source: Source;
  /** Other words that bear on it (field reports, other revisions' wording), for a reader. */
  readonly background?: string;
  readonly severity: Severity;
  readonly revisions: readonly string[];
  readonly kind: 'safety' | 'liveness';
  /** The client sent a request (seen as the network receives it, before the server does). */
  readonly onRequest?: (world: ClientWorld, exchange: Exchange) => string | null;
  /** A response head reached the client (or the exchange failed before one did: `status` 0). */
  readonly onResponse?: (world: ClientWorld, exchange: Exchange) => string | null;
  /** The run is over, after the liveness phase. */
  readonly onFinish?: (world: ClientWorld) => string | null;
}
