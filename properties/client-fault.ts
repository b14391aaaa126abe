// The requestor's rule a client (or a proxy acting for it) can break itself: a request ID used again while its
// request is still in flight. A finding that such a step can itself produce is charged to the client, not the server.

import type { SpecSource } from './source.ts';

/** The legacy revisions' rule: a request ID is used once per session by its requestor. */
export const REQUEST_ID_ONCE_PER_SESSION: SpecSource = {
  kind: 'spec',
  revisions: ['2025-06-18', '2025-11-25'],
  page: 'basic/index',
  section: 'Requests',
  quote: 'The request ID MUST NOT have been previously used by the requestor within the same session.',
  keyword: 'MUST NOT',
};

/** The 2026-07-28 rule: a request ID never matches another request still waiting for its response. */
export const REQUEST_ID_NOT_IN_FLIGHT: SpecSource = {
  kind: 'spec',
  revisions: ['2026-07-28'],
  page: 'basic/index',
  section: 'Requests',
  quote: 'The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a response for.',
  keyword: 'MUST NOT',
};

/** A client's step that broke a requestor's rule, as a finding it triggered names it. */
export interface ClientFault {
  /** The step (0-based) that broke it. */
  readonly step: number;
  /** The step as a person reads it (sim/actions.ts's description). */
  readonly action: string;
  /** True when the client speaks 2026-07-28 (its rule is REQUEST_ID_NOT_IN_FLIGHT). */
  readonly modern: boolean;
}

/** The rule a client fault broke. */
export function brokenRule(fault: ClientFault): SpecSource {
  return fault.modern ? REQUEST_ID_NOT_IN_FLIGHT : REQUEST_ID_ONCE_PER_SESSION;
}

/** "the client broke MUST NOT … at step k (…)": how a triggered finding starts. */
export function describeClientFault(fault: ClientFault): string {
  const rule = brokenRule(fault);
  return `the client broke ${rule.keyword} (MCP ${rule.revisions.join(', ')} ${rule.page}: "${rule.quote}") at step ${fault.step + 1} (${fault.action})`;
}
