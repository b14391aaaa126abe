// Which properties need a server's cooperation (the probe tools, docs/probe-tools.md) and which judge any server from
// what a client sees alone: status codes, event-ID ownership across sessions and streams, well-formed messages, hangs,
// and whether a call's stream begins with a priming event (a call of a tool the server lacks still gets an answer,
// on a stream when the server streams its answers).

import { PROPERTY_NAMES, type PropertyName } from '../../properties/names.ts';

/** Properties judged on any server, probe tools or not: they need no provenance in the messages. */
export const COOPERATION_FREE: readonly PropertyName[] = [
  'status-codes',
  'no-cross-session-delivery',
  'no-cross-stream-replay',
  'well-formed-messages',
  'no-hang',
  'priming-event',
];

/** Why a property is not judged on a server without the probe tools. */
export const NOT_JUDGED_WITHOUT_PROBE =
  'needs the probe tools: its judgement rests on the provenance (session, call, execution, position) that only they put in the messages';

/** The properties to check on a server: the requested ones (default all), less those it cannot be judged on. */
export function judgedProperties(requested: readonly PropertyName[] | undefined, options: { probe: boolean }): PropertyName[] {
  const wanted = requested ?? PROPERTY_NAMES;
  return options.probe ? [...wanted] : wanted.filter((name) => COOPERATION_FREE.includes(name));
}
