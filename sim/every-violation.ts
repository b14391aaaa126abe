// Every violation of one run in one simulation. A search wants each property a run violates, and a simulation stops at
// its first violation; checking fewer properties changes no step of a run, only which violation ends it, so a search
// used to make the run again without the property violated, until a simulation ended with none (sim/search/
// fuzz-search.ts, eachViolation). On a target that fails most runs that simulated each run three times over, its
// prefix again each time. Here the run goes on past each violation instead, and what each of those simulations would
// have given is read off the one: the same violations, choices and step counts, in the same order.
//
// What a simulation that checks the properties C reports: the first violation of a property of C that ends a run (in
// the order the hooks report them), as the run stood at the next check the loop makes (sim/engine.ts: a violation
// ends a run there); or, a run ending with none, the first kept-aside violation of C, else the first a client's fault
// triggered, else the first note (sim/levels/server-level.ts, finish). Each property counts by its first report of each
// kind; a property once reported leaves C for the simulations after.

import type { PropertyName } from '../properties/names.ts';
import type { RunResult, TraceStep } from './engine.ts';
import type { Violation } from './world.ts';

/** How a level files a violation: one that ends a run, or one kept until the run is over (in this order of rank). */
export type ViolationKind = 'ends' | 'aside' | 'triggered' | 'noted';

/** Where a run stands: what a simulation ending now reports, less its violation. */
interface RunSoFar {
  readonly choices: readonly number[];
  readonly steps: number;
  readonly healSteps: number;
  readonly trace: readonly TraceStep[] | null;
}

export class EveryViolation {
  /** The properties the run checks (null: every one of the level's `total`), less `gone`: what the next simulation would check. */
  private readonly checked: ReadonlySet<PropertyName> | null;
  private readonly total: number;
  /** The properties whose simulation has ended, in order (few: no set is made per run). */
  private readonly gone: PropertyName[] = [];
  /** First reports of the properties left that end a run, since the last check. */
  private readonly ending: Violation[] = [];
  /** First reports kept until the run is over, by kind, in the order reported. */
  private readonly kept: Record<Exclude<ViolationKind, 'ends'>, Violation[]> = { aside: [], triggered: [], noted: [] };
  /** What each simulation would have reported, in order. */
  readonly results: RunResult[] = [];
  /** Told once, when the first simulation would have ended (a search counts only that one). */
  watcher: { firstEnded(): void } | null = null;

  constructor(checked: ReadonlySet<PropertyName> | null, total: number) {
    this.checked = checked;
    this.total = checked === null ? total : checked.size;
  }

  /** Whether the next simulation would check `property`. */
  private left(property: PropertyName): boolean {
    return (this.checked === null || this.checked.has(property)) && !this.gone.includes(property);
  }

  /** True once no property is left to check: no later simulation would be made. */
  get done(): boolean {
    return this.gone.length >= this.total;
  }

  /** Whether a violation that ends a run was filed since the last check (the loop asks before each step). */
  get pending(): boolean {
    return this.ending.length > 0;
  }

  /** Whether a violation of `property` filed as `kind` now would count: its property is left, and it is its first. */
  wants(kind: ViolationKind, property: PropertyName): boolean {
    if (!this.left(property)) return false;
    const list = kind === 'ends' ? this.ending : this.kept[kind];
    return !list.some((each) => each.property === property);
  }

  /** A hook's violation of `violation.property`, filed as `kind`: one {@link EveryViolation.wants} said yes to. */
  file(kind: ViolationKind, violation: Violation): void {
    (kind === 'ends' ? this.ending : this.kept[kind]).push(violation);
  }

  /**
   * The loop's check before a step, the run standing at `choices`, `steps` and `healSteps` (as a run ending now would
   * report them): each violation filed since the last check ends a simulation here, the next checking one property
   * fewer.
   */
  check(choices: readonly number[], steps: number, healSteps: number, trace: readonly TraceStep[] | null): void {
    if (this.ending.length === 0) return;
    for (const violation of this.ending) this.end(violation, { choices, steps, healSteps, trace });
    this.ending.length = 0;
  }

  /** The run is over (its final checks made): the simulations that would have run to the end, the last with none. */
  finish(choices: readonly number[], steps: number, healSteps: number, trace: readonly TraceStep[] | null): void {
    this.check(choices, steps, healSteps, trace);
    if (this.done && this.results.length > 0) return;
    const run = { choices, steps, healSteps, trace };
    for (const kind of ['aside', 'triggered', 'noted'] as const) {
      for (const violation of this.kept[kind]) {
        if (!this.left(violation.property)) continue;
        this.end(violation, run);
        if (this.done) return;
      }
    }
    this.push(null, run);
  }

  private end(violation: Violation, run: RunSoFar): void {
    if (this.results.length === 0) this.watcher?.firstEnded();
    this.push(violation, run);
    this.gone.push(violation.property);
  }

  private push(violation: Violation | null, run: RunSoFar): void {
    this.results.push({ violation, choices: run.choices.slice(), steps: run.steps, healSteps: run.healSteps, trace: run.trace === null ? null : run.trace.slice() });
  }
}
