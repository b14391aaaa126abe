// Every property, in the order their monitors run (the first violation found is the one reported).
import { disconnectCancels } from './disconnect-cancels.ts';
import { disconnectStopsWork } from './disconnect-stops-work.ts';
import { eraIsolation } from './era-isolation.ts';
import { exactlyOnceExecution } from './exactly-once-execution.ts';
import { modernExchangeOwnMessages } from './modern-exchange-own-messages.ts';
import { modernExchangeStateless } from './modern-exchange-stateless.ts';
import { modernOnly405 } from './modern-only-405.ts';
import { reissuedCallRunsAgain } from './reissued-call-runs-again.ts';
import { inOrderPerStream } from './in-order-per-stream.ts';
import { missingSessionId400 } from './missing-session-id-400.ts';
import { PROPERTY_NAMES, type PropertyName, type ServerPropertyName } from './names.ts';
import { noCrossEpochReplay } from './no-cross-epoch-replay.ts';
import { noCrossSessionDelivery } from './no-cross-session-delivery.ts';
import { noDuplicateDelivery } from './no-duplicate-delivery.ts';
import { noCrossStreamReplay } from './no-cross-stream-replay.ts';
import { noHang } from './no-hang.ts';
import { noLostNotification } from './no-lost-notification.ts';
import { noLostResult } from './no-lost-result.ts';
import { noRedelivery } from './no-redelivery.ts';
import { noRequestFrameDelivered } from './no-request-frame-delivered.ts';
import { noSilentGap } from './no-silent-gap.ts';
import { noWithheldResult } from './no-withheld-result.ts';
import { oneConnectionPerStream } from './one-connection-per-stream.ts';
import { primingEvent } from './priming-event.ts';
import { MODERN, type Property } from './property.ts';
import { retryBeforeClose } from './retry-before-close.ts';
import { reusedRequestIdRefused } from './reused-request-id-refused.ts';
import { resultToItsRequest } from './result-to-its-request.ts';
import { statusCodes } from './status-codes.ts';
import { unsupportedVersion400 } from './unsupported-version-400.ts';
import { wellFormedMessages } from './well-formed-messages.ts';

export { PROPERTY_NAMES, isPropertyName, type PropertyName } from './names.ts';
export type { Property } from './property.ts';

const byName: Record<ServerPropertyName, Property> = {
  'status-codes': statusCodes,
  'missing-session-id-400': missingSessionId400,
  'no-cross-session-delivery': noCrossSessionDelivery,
  'no-cross-epoch-replay': noCrossEpochReplay,
  'no-cross-stream-replay': noCrossStreamReplay,
  'result-to-its-request': resultToItsRequest,
  'no-redelivery': noRedelivery,
  'in-order-per-stream': inOrderPerStream,
  'no-silent-gap': noSilentGap,
  'exactly-once-execution': exactlyOnceExecution,
  'well-formed-messages': wellFormedMessages,
  'no-lost-result': noLostResult,
  'no-hang': noHang,
  'no-lost-notification': noLostNotification,
  'no-duplicate-delivery': noDuplicateDelivery,
  'one-connection-per-stream': oneConnectionPerStream,
  'reused-request-id-refused': reusedRequestIdRefused,
  'no-withheld-result': noWithheldResult,
  'no-request-frame-delivered': noRequestFrameDelivered,
  'priming-event': primingEvent,
  'retry-before-close': retryBeforeClose,
  'disconnect-cancels': disconnectCancels,
  'disconnect-stops-work': disconnectStopsWork,
  'modern-exchange-stateless': modernExchangeStateless,
  'modern-exchange-own-messages': modernExchangeOwnMessages,
  'era-isolation': eraIsolation,
  'modern-only-405': modernOnly405,
  'reissued-call-runs-again': reissuedCallRunsAgain,
  'unsupported-version-400': unsupportedVersion400,
};

/** All properties in monitor order. */
export const PROPERTIES: readonly Property[] = PROPERTY_NAMES.map((name) => byName[name]);

/** True for a property of severity `note`: what it finds is reported and fails nothing (exit codes, JUnit). */
export function isNote(name: PropertyName): boolean {
  return PROPERTIES.some((property) => property.name === name && property.severity === 'note');
}

/** True for a property of the 2026-07-28 revision alone: it never applies to a server of the 2025 revisions alone. */
export function isModernOnly(name: PropertyName): boolean {
  return PROPERTIES.some((property) => property.name === name && property.revisions.every((revision) => MODERN.includes(revision)));
}

/** Every property that fails a run (all but the notes), in monitor order: what a search checks unless told one. */
export const FAILING_PROPERTY_NAMES: readonly PropertyName[] = PROPERTIES.filter((property) => property.severity !== 'note').map((property) => property.name);

/**
 * What a search checks: the property asked for, or every property that fails a run. A note (what its revision
 * permits, such as a re-issued 2026-07-28 append running twice) would otherwise end every search at its own depth and
 * hide the violations past it; `only` names one to search for it.
 */
export function checkedProperties(only: PropertyName | undefined): { readonly properties: readonly PropertyName[] } {
  return { properties: only === undefined ? FAILING_PROPERTY_NAMES : [only] };
}
