// The names of the properties resumecheck checks, in the order their monitors run.

/** Every property, in the order their monitors are consulted (the first violation found is reported). */
export const PROPERTY_NAMES = [
  'status-codes',
  'missing-session-id-400',
  'no-cross-session-delivery',
  'no-cross-epoch-replay',
  'no-cross-stream-replay',
  'result-to-its-request',
  'no-redelivery',
  'in-order-per-stream',
  'no-silent-gap',
  'exactly-once-execution',
  'well-formed-messages',
  'no-lost-result',
  'no-hang',
  'no-lost-notification',
  'no-duplicate-delivery',
  'one-connection-per-stream',
  'reused-request-id-refused',
  'no-withheld-result',
  'no-request-frame-delivered',
  'priming-event',
  'retry-before-close',
  // The 2026-07-28 era and dual-era endpoints.
  'disconnect-cancels',
  'disconnect-stops-work',
  'modern-exchange-stateless',
  'modern-exchange-own-messages',
  'era-isolation',
  'modern-only-405',
  'reissued-call-runs-again',
  // Judged only on the version fault's requests (config versionFaults).
  'unsupported-version-400',
] as const;

/** The name of one property of the server level. */
export type ServerPropertyName = (typeof PROPERTY_NAMES)[number];

/** The properties of the client level (properties/clients/): what a client does, judged by the network it talks over. */
export const CLIENT_PROPERTY_NAMES = ['client-resumes-latest', 'client-reinitializes-after-404', 'client-reconnects-bounded', 'client-requests-settle'] as const;

/**
 * The properties of the store level (properties/stores/): what an SDK EventStore must do, driven directly under its
 * contract, in the order violations are reported; the last, `store-calls-succeed`, is judged by check-store's
 * end-to-end phase (the store's calls failing inside the SDK transport), not by the store level's judge.
 */
export const STORE_PROPERTY_NAMES = [
  'calls-settle',
  'event-ids-unique',
  'event-ids-unique-across-sessions',
  'session-isolation',
  'unknown-cursor-yields-nothing',
  'no-silent-skip',
  'replay-exact',
  'resumes-within-window',
  'store-calls-succeed',
] as const;

/** The name of one property of the store level. */
export type StorePropertyName = (typeof STORE_PROPERTY_NAMES)[number];

/** The name of one property, of any level. */
export type PropertyName = ServerPropertyName | (typeof CLIENT_PROPERTY_NAMES)[number] | StorePropertyName;

/** True when `name` is a property name (of any level). */
export function isPropertyName(name: string): name is PropertyName {
  return (PROPERTY_NAMES as readonly string[]).includes(name) || (CLIENT_PROPERTY_NAMES as readonly string[]).includes(name) || (STORE_PROPERTY_NAMES as readonly string[]).includes(name);
}

/** Every property of a level, by the level's name as traces record it (undefined: the server level). */
export function levelPropertyNames(level: 'client' | 'store' | undefined): readonly PropertyName[] {
  return level === 'client' ? CLIENT_PROPERTY_NAMES : level === 'store' ? STORE_PROPERTY_NAMES : PROPERTY_NAMES;
}
