// The contract phase: seeded random walks of operations against the store, each run judged against every contract
// property; the first violation of each property is shrunk to a minimal operation sequence and recorded as a trace.

import { RESUMECHECK_VERSION } from '../traces/trace.ts';
import type { StoreSource } from '../targets/module/module.target.ts';
import { CONTRACT_PROPERTY_NAMES, type ContractPropertyName } from './contract-properties.ts';
import { contractKeyed, contractSequence, contractWalk, runContract } from './contract-run.ts';
import { type ContractConfig, DEFAULT_CONTRACT_CONFIG } from './contract-world.ts';
import { shrinkSequence } from './shrink-sequence.ts';
import { CONTRACT_TRACE_FORMAT, CONTRACT_TRACE_FORMAT_VERSION, type ContractTrace } from './store-traces.ts';

/** What the contract phase is asked to do. */
export interface ContractCheckOptions {
  readonly shared: boolean;
  /** Runs at the most (the phase stops early once every property has a counterexample). */
  readonly runs: number;
  readonly seed: string;
  /** Predicate evaluations one shrink may make. */
  readonly shrinkEvaluationsMax?: number;
  /** Settings besides seed and shared; defaults from {@link DEFAULT_CONTRACT_CONFIG}. */
  readonly config?: Partial<Omit<ContractConfig, 'seed' | 'shared'>>;
}

/** A contract violation found, shrunk and recorded. */
export interface ContractFinding {
  /** 1-based number of the run that found it. */
  readonly run: number;
  readonly trace: ContractTrace;
}

/** The outcome of the contract phase. */
export interface ContractCheckOutcome {
  readonly runs: number;
  /** The first violation of each property found, in property order. */
  readonly findings: readonly ContractFinding[];
}

/** Shrink evaluations unless told otherwise: contract runs take milliseconds. */
export const CONTRACT_SHRINK_EVALUATIONS_MAX = 400;

/** The seed of contract run `run` of a check seeded with `seed`. */
export function contractRunSeed(seed: string, run: number): string {
  return `${seed}.c${run}`;
}

/** Re-runs a choice sequence with recording on and packs it as a trace of `property`'s violation. */
export async function recordContractTrace(
  source: StoreSource,
  config: ContractConfig,
  choices: readonly number[],
  property: ContractPropertyName,
  shrink: { originalLength: number; evaluations: number } | null,
): Promise<ContractTrace> {
  const recorded = await runContract(source, config, contractSequence(choices), { record: true });
  const verdict = recorded.violations.find((violation) => violation.property === property);
  if (verdict === undefined) throw new Error(`assertion: the recorded contract run no longer violates ${property} (is the store deterministic?)`);
  return {
    format: CONTRACT_TRACE_FORMAT,
    formatVersion: CONTRACT_TRACE_FORMAT_VERSION,
    resumecheckVersion: RESUMECHECK_VERSION,
    store: source.ref,
    config,
    choices: recorded.choices,
    steps: recorded.steps ?? [],
    verdict,
    shrink: shrink === null ? null : { originalLength: shrink.originalLength, shrunkLength: recorded.choices.length, evaluations: shrink.evaluations },
  };
}

/** Runs the contract phase. */
export async function checkContract(source: StoreSource, options: ContractCheckOptions): Promise<ContractCheckOutcome> {
  const findings = new Map<ContractPropertyName, ContractFinding>();
  let runs = 0;
  for (let run = 1; run <= options.runs && findings.size < CONTRACT_PROPERTY_NAMES.length; run += 1) {
    runs = run;
    const config: ContractConfig = { ...DEFAULT_CONTRACT_CONFIG, ...options.config, seed: contractRunSeed(options.seed, run), shared: options.shared };
    const result = await runContract(source, config, contractWalk(config.seed, config.stepsMax));
    for (const property of CONTRACT_PROPERTY_NAMES) {
      if (findings.has(property) || !result.violations.some((violation) => violation.property === property)) continue;
      const shrink = await shrinkSequence(
        result.taken,
        async (candidate) => {
          const rerun = await runContract(source, config, contractKeyed(candidate));
          return rerun.violations.some((violation) => violation.property === property) ? rerun.taken : null;
        },
        options.shrinkEvaluationsMax ?? CONTRACT_SHRINK_EVALUATIONS_MAX,
      );
      const choices = shrink.steps.map((step) => step.choice);
      findings.set(property, { run, trace: await recordContractTrace(source, config, choices, property, shrink) });
    }
  }
  return { runs, findings: CONTRACT_PROPERTY_NAMES.flatMap((property) => findings.get(property) ?? []) };
}

/** Replays a contract trace against the store from `source`: the violations the same choices give now. */
export async function replayContractTrace(source: StoreSource, trace: ContractTrace): Promise<{ violations: ContractTrace['verdict'][]; steps: ContractTrace['steps'] }> {
  const result = await runContract(source, trace.config, contractSequence(trace.choices), { record: true });
  return { violations: [...result.violations], steps: result.steps ?? [] };
}
