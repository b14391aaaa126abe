// The client level's properties, in the order their monitors run (the first violation found is the one reported).

import { CLIENT_PROPERTY_NAMES } from '../names.ts';
import { clientReconnectsBounded } from './client-reconnects-bounded.ts';
import { clientReinitializesAfter404 } from './client-reinitializes-after-404.ts';
import type { ClientProperty } from './client-property.ts';
import { clientRequestsSettle } from './client-requests-settle.ts';
import { clientResumesLatest } from './client-resumes-latest.ts';

export type { ClientProperty, Severity } from './client-property.ts';

const byName: Record<(typeof CLIENT_PROPERTY_NAMES)[number], ClientProperty> = {
  'client-resumes-latest': clientResumesLatest,
  'client-reinitializes-after-404': clientReinitializesAfter404,
  'client-reconnects-bounded': clientReconnectsBounded,
  'client-requests-settle': clientRequestsSettle,
};

/** All client properties in monitor order. */
export const CLIENT_PROPERTIES: readonly ClientProperty[] = CLIENT_PROPERTY_NAMES.map((name) => byName[name]);
