// resumecheck as a library (`import { checkEventStore } from 'resumecheck'`): the store checker, the simulator, the
// targets, the properties, the trace format, and the decision core's SDK event store.

// Checking a server author's EventStore (both phases; the CLI's check-store uses the same function).
export {
  type CheckEventStoreOptions,
  type StoreCheckResult,
  type StoreCheckSizes,
  type StoreInput,
  type StoreViolation,
  DEFAULT_STORE_CHECK_RUNS,
  STORE_CALLS_SUCCEED,
  checkEventStore,
  probeEventStore,
} from './check-store/check-event-store.ts';
// The store level's properties (the EventStore contract), judged by check-store's contract phase.
export { SHARED_ISOLATION_NOTE, STORE_PROPERTIES, type StoreProperty } from './properties/stores/index.ts';
export { STORE_PROPERTY_NAMES, type StorePropertyName } from './properties/names.ts';
export type { Severity } from './properties/severity.ts';
export { DEFAULT_CALL_TIMEOUT_MS } from './sim/levels/store-level.ts';
export { endToEndSeverity } from './check-store/end-to-end-properties.ts';
export type { TransportDefect } from './check-store/end-to-end.ts';
export type { StoreTrace } from './check-store/contract-check.ts';
export { type EventStoreFactory, type StoreContext, type StoreModuleRef, StoreModuleError } from './targets/module/store-module.ts';

// The simulator.
export { type ChoiceSource, type RunOptions, type RunResult, type TraceStep, runSimulation } from './sim/engine.ts';
export { type Finding, type FuzzOptions, type FuzzOutcome, fuzz, recordTrace, runSeed } from './sim/search/fuzz.ts';
export { type ShrinkBounds, type ShrinkResult, DEFAULT_SHRINK_BOUNDS, shrinkChoices } from './sim/shrink/shrink.ts';
export { planWalk, sequenceChoices, walkChoices } from './sim/choices.ts';
export { ScriptError, scriptChoices } from './sim/shrink/script.ts';
export { type ExploreOutcome, explore } from './sim/search/explore.ts';
export { ACTION_KINDS, type ActionKind, CONFIG_BOUNDS, ConfigError, DEFAULT_CONFIG, type SimConfig, resolveConfig } from './sim/config.ts';
export type { Violation } from './sim/world.ts';

// Systems under test.
export { TARGETS, TARGETS as targets, findTarget } from './targets/index.ts';
export { type ModuleTarget, type StoreSource, createModuleTarget, functionSource, moduleSource, moduleTargetFromName } from './targets/module/module.target.ts';
export { type SdkEventStores, type SdkTargetSpec, createSdkTarget } from './targets/sdk/index.ts';
export type * from './targets/target.ts';

// Properties.
export { PROPERTIES, PROPERTIES as properties, PROPERTY_NAMES, type Property, type PropertyName, isPropertyName } from './properties/index.ts';

// Traces.
export { type Trace, TraceFormatError, parseTrace, renderSteps, serializeTrace } from './traces/trace.ts';
export { readTrace, writeTrace } from './traces/store.ts';

// The decision core as an SDK EventStore (also `resumecheck/event-store`).
export {
  CursorRefusedError,
  type EventStoreBackend,
  type EventStoreBackendOptions,
  SDK_STANDALONE_STREAM_ID,
  createEventStoreBackend,
} from './event-store/index.ts';
