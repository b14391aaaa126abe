// The store level: an SDK EventStore driven directly under its contract, with overlapping calls, held sends, forged
// and foreign cursors and restarts (store-actions.ts), each run in a fresh world (a fresh instance of the store's
// module; the SDK's clock and randomness and node:crypto's randomUUID and randomBytes patched from the run's seed).
// The engine runs it through its one loop: the fault phase's operations from a choice source, the liveness phase's
// one step (every held send returns and every call is awaited), then the final checks (properties/stores/).

import { judgeStore } from '../../properties/stores/index.ts';
import type { StoreSource, StoreWorld as StoreModuleWorld } from '../../targets/module/module.target.ts';
import { patchNodeCrypto } from '../../targets/module/random.ts';
import { patchSdkGlobals } from '../../targets/sdk/random.ts';
import { ACTIONS_MAX, type ActionList, createActionList } from '../actions.ts';
import { DEFAULT_STORE_LEVEL_BOUNDS, type SimConfig, type StoreLevelBounds, resolveConfig } from '../config.ts';
import type { StepRecord, TraceStep } from './records.ts';
import { createPrng } from '../prng.ts';
import type { Violation } from '../world.ts';
import type { Level, LevelRun, LevelRunOptions } from './level.ts';
import { EveryViolation } from '../every-violation.ts';
import { STORE_PROPERTY_NAMES } from '../../properties/names.ts';
import { STORE_ACTION_KINDS, STORE_KINDS, type StoreActionKind, describeStoreAction, enumerateStoreActions, openIncarnation, performStoreAction, storeActionRecord, storeActionsMax } from './store-actions.ts';
import { type StoreSettings, StoreWorld } from './store-world.ts';

/** Real milliseconds a store call may take unless --call-timeout says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = DEFAULT_STORE_LEVEL_BOUNDS.callTimeoutMs;

/** The store level's defaults: small enough to shrink well, large enough to exceed the window and interleave. */
export const DEFAULT_STORE_LEVEL = { stepsMax: 40, restartsMax: 1, bounds: DEFAULT_STORE_LEVEL_BOUNDS } as const;

/** Settings of a store-level run, each optional (the defaults above). */
export interface StoreLevelSizes extends Partial<StoreLevelBounds> {
  readonly stepsMax?: number;
  readonly restartsMax?: number;
}

/** The config of a store-level run of seed `seed`: the defaults, then `sizes`. Throws ConfigError on a bound broken. */
export function storeLevelConfig(seed: string, sizes: StoreLevelSizes = {}): SimConfig {
  const { stepsMax = DEFAULT_STORE_LEVEL.stepsMax, restartsMax = DEFAULT_STORE_LEVEL.restartsMax, ...bounds } = sizes;
  return resolveConfig({ seed, stepsMax, restartsMax, store: { ...DEFAULT_STORE_LEVEL.bounds, ...bounds } });
}

/**
 * Base weights per kind of a walk. Stores come often, so streams grow past the window and replays have several events
 * to send; own resumptions more often than the attacks, which need one occurrence each to be judged.
 */
const BASE_WEIGHTS: Readonly<Record<StoreActionKind, number>> = {
  openSession: 0.6,
  reuseSessionId: 0.4,
  openPostStream: 1,
  store: 4,
  respond: 0.5,
  replayOwn: 2,
  replayForeign: 0.5,
  replayPreRestart: 0.5,
  replayForged: 0.5,
  replayMalformed: 0.3,
  awaitStore: 1.5,
  awaitReplay: 1,
  releaseSend: 2,
  restart: 0.3,
  drain: 0,
};

/** Kinds a swarm walk may switch off or scale; the others keep their base weight so a run can always progress. */
const SWARM_KINDS: readonly StoreActionKind[] = ['replayForeign', 'replayPreRestart', 'replayForged', 'replayMalformed', 'awaitStore', 'awaitReplay', 'releaseSend', 'restart', 'respond'];

/** What one store-level run came to, beyond its verdict: told to the level's `onRunEnd` when the run closes. */
export interface StoreRunReport {
  /** The run's seed. */
  readonly seed: string;
  /** Every violation the judge found, of every property (checked or not), in report order; empty for a run cut short. */
  readonly violations: readonly Violation[];
  /** What went wrong ending the run (an onRunEnd hook or the module's close() threw or hung), one line each. */
  readonly teardown: readonly string[];
  /** Waits that ran out the call timeout: at most 1 (the first ends the run), whatever the store does. */
  readonly timeoutsWaited: number;
  /** The action kind of each fault-phase step, in order. */
  readonly kinds: readonly number[];
}

/** How the store is used, and who hears of each run's end. */
export interface StoreLevelOptions {
  readonly shared: boolean;
  readonly durable: boolean;
  /** Told what each run came to once it has closed (check-store reads every violation and the timeouts waited). */
  readonly onRunEnd?: (report: StoreRunReport) => void;
}

/** One run of the store level. */
class StoreLevelRun implements LevelRun {
  readonly trace: TraceStep[] | null;
  private readonly kinds: number[] = [];
  private violations: readonly Violation[] = [];
  /** Notes of what happened before the first step (the shared store's factory call), given to the first step. */
  private opening: StepRecord[] | null;
  /**
   * With everyViolation: every violation the judge finds, filed as kept until the run is over (the judge runs once the
   * world has settled), so one run gives what a simulation without each property violated would.
   */
  readonly every: EveryViolation | null;

  constructor(
    readonly world: StoreWorld,
    readonly list: ActionList,
    options: LevelRunOptions,
    private storeModule: StoreModuleWorld | null,
    private readonly restore: () => void,
    private readonly onRunEnd: ((report: StoreRunReport) => void) | undefined,
  ) {
    this.trace = options.record ? [] : null;
    this.every = options.everyViolation === true ? new EveryViolation(world.checked, STORE_PROPERTY_NAMES.length) : null;
    this.opening = options.record ? [] : null;
    world.notes = this.opening;
  }

  enumerate(): void {
    // A wait that ran out ends the fault phase: the run's verdict (a call that never settled) is known.
    if (this.world.timeoutsWaited > 0) this.list.count = 0;
    else enumerateStoreActions(this.world, this.list);
  }

  begin(choice: number, phase: TraceStep['phase']): void {
    const kind = this.list.kind[choice]!;
    if (phase === 'faults') this.kinds.push(kind);
    if (this.trace === null) return;
    const notes: StepRecord[] = this.opening ?? [];
    this.opening = null;
    this.trace.push({ choice, phase, action: storeActionRecord(this.world, kind, this.list.a[choice]!, this.list.b[choice]!), observations: notes });
    this.world.notes = notes;
  }

  step(kind: number, a: number, b: number): Promise<void> | void {
    return performStoreAction(this.world, kind, a, b);
  }

  startHeal(): void {}

  nextHeal(): number | null {
    const { world, list } = this;
    if (world.drained) return null;
    list.kind[0] = STORE_KINDS.drain;
    list.a[0] = 0;
    list.b[0] = 0;
    list.count = 1;
    return 0;
  }

  finish(): void {
    const { world } = this;
    world.notes = null;
    // Each with its signature, as at the other levels (sim/signature.ts): the action kind of the step it was seen in
    // (`settled` past the last fault step: the final drain), then what the judge saw.
    this.violations = judgeStore(world).map((violation) => ({ ...violation, signature: violation.signature ?? this.signatureAt(violation.step) }));
    world.violation = this.violations.find((violation) => world.checked === null || world.checked.has(violation.property)) ?? null;
    const { every } = this;
    if (every !== null) for (const violation of this.violations) if (every.wants('aside', violation.property)) every.file('aside', violation);
  }

  /** The signature of a violation seen at `step`: the action kind of that fault step, or `settled` past the last. */
  private signatureAt(step: number): string {
    const kind = this.kinds[step];
    return kind === undefined ? 'settled' : `${STORE_ACTION_KINDS[kind] ?? `action ${kind}`} / store call`;
  }

  async close(): Promise<void> {
    const { world } = this;
    world.notes = null;
    let teardown: readonly string[] = [];
    try {
      const opened = this.storeModule;
      this.storeModule = null;
      if (opened !== null) teardown = await opened.end(world.settings.callTimeoutMs);
    } finally {
      this.restore();
    }
    this.onRunEnd?.({ seed: world.settings.seed, violations: this.violations, teardown, timeoutsWaited: world.timeoutsWaited, kinds: this.kinds });
  }
}

/** The store level for the store from `source`, used as `options` say (one store per session, or shared). */
export function storeLevel(source: StoreSource, options: StoreLevelOptions): Level {
  const where = source.ref === null ? 'the factory' : source.ref.path;
  return {
    name: 'store',
    faultKinds: SWARM_KINDS.map((kind) => STORE_KINDS[kind]),
    walk: { baseWeights: STORE_ACTION_KINDS.map((kind) => BASE_WEIGHTS[kind]), byKind: true },
    async open(config: SimConfig, runOptions: LevelRunOptions): Promise<LevelRun> {
      const bounds = config.store ?? DEFAULT_STORE_LEVEL.bounds;
      const settings: StoreSettings = { ...bounds, seed: config.seed, shared: options.shared, durable: options.durable, stepsMax: config.stepsMax, restartsMax: config.restartsMax };
      const globals = patchSdkGlobals(config.seed);
      const crypto = patchNodeCrypto(config.seed);
      const restore = (): void => {
        crypto.restore();
        globals.restore();
      };
      let storeModule: StoreModuleWorld | null = null;
      // Until a run holds the patched globals and the module's world, they are put back here.
      let run: StoreLevelRun | null = null;
      try {
        storeModule = await source.openWorld(config.seed);
        const checked = runOptions.properties === null ? null : new Set(runOptions.properties);
        const world = new StoreWorld(config, settings, checked, storeModule.factory, storeModule.onRunEnd, where, createPrng(`${config.seed}/contract`), describeStoreAction);
        const needed = storeActionsMax(settings);
        const given = runOptions.actions;
        const list = given !== null && given.kind.length >= needed ? given : needed <= ACTIONS_MAX ? createActionList() : sizedActionList(needed);
        run = new StoreLevelRun(world, list, runOptions, storeModule, restore, options.onRunEnd);
        await openIncarnation(world);
        return run;
      } catch (error) {
        if (run !== null) await run.close();
        else {
          try {
            if (storeModule !== null) await storeModule.end(settings.callTimeoutMs);
          } finally {
            restore();
          }
        }
        throw error;
      }
    },
  };
}

function sizedActionList(size: number): ActionList {
  return { count: 0, kind: new Int32Array(size), a: new Int32Array(size), b: new Int32Array(size) };
}
