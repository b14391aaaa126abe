// Contract traces of check-store: their own format (the operations driven at the store), written atomically under a
// content-hash name, replayed by `resumecheck check-store --replay FILE`. End-to-end traces are the simulator's
// (traces/store.ts), with target `module:<path>`, replayed by `resumecheck replay`.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreModuleError, type StoreModuleRef } from '../targets/module/store-module.ts';
import { shellQuote } from '../traces/trace-execution.ts';
import { CONTRACT_PROPERTY_NAMES, type ContractPropertyName } from './contract-properties.ts';
import { type ContractConfig, type ContractStep, type ContractViolation, DEFAULT_CALL_TIMEOUT_MS } from './contract-world.ts';

/** The format name of contract traces. */
export const CONTRACT_TRACE_FORMAT = 'resumecheck-store-contract';
/** The version of the contract trace format this build writes and reads. */
export const CONTRACT_TRACE_FORMAT_VERSION = 1;

/** A stored contract run: everything it is a function of (store, config, choices), and what it showed. */
export interface ContractTrace {
  readonly format: typeof CONTRACT_TRACE_FORMAT;
  readonly formatVersion: number;
  readonly resumecheckVersion: string;
  /** The store module; null when the factory was given as a function (replayable through the library only). */
  readonly store: StoreModuleRef | null;
  readonly config: ContractConfig;
  readonly choices: readonly number[];
  readonly steps: readonly ContractStep[];
  readonly verdict: ContractViolation;
  readonly shrink: { readonly originalLength: number; readonly shrunkLength: number; readonly evaluations: number } | null;
}

/** The canonical text of a contract trace. */
export function serializeContractTrace(trace: ContractTrace): string {
  return `${JSON.stringify(trace, null, 2)}\n`;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._+-]+/g, '_').replace(/^[._]+/, '').slice(0, 120) || 'store';
}

function storeLabel(store: StoreModuleRef | null): string {
  return store === null ? 'function' : `${store.path}${store.exportName === null ? '' : `#${store.exportName}`}`;
}

function writeAtomically(directory: string, name: string, text: string): { path: string; created: boolean } {
  mkdirSync(directory, { recursive: true });
  const path = join(directory, name);
  if (existsSync(path)) return { path, created: false };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  renameSync(temporary, path);
  return { path, created: true };
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The command line naming a contract trace's store module as check-store's MODULE (and its export), the way to replay
 * the trace at `file`: a trace is data, so `--replay FILE` alone imports nothing it names.
 */
export function contractReplayArgs(file: string, store: StoreModuleRef): string {
  return `check-store ${shellQuote(store.path)}${store.exportName === null ? '' : ` --export ${shellQuote(store.exportName)}`} --replay ${shellQuote(file)}`;
}

/** Writes a contract trace into `directory`; an equal trace already there is left as it is. */
export function writeContractTrace(directory: string, trace: ContractTrace): { path: string; created: boolean } {
  const text = serializeContractTrace(trace);
  const name = `store-contract--${safeName(storeLabel(trace.store))}${trace.config.shared ? '+shared' : ''}--${trace.verdict.property}--${hashOf(text)}.json`;
  return writeAtomically(directory, name, text);
}

function fail(message: string): never {
  throw new StoreModuleError(message);
}

/** Reads and checks a contract trace file; anything off is bad input (one line). */
export function readContractTrace(path: string): ContractTrace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    fail(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    fail(`${path}: not JSON`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(`${path}: not a trace object`);
  const record = data as Record<string, unknown>;
  if (record['format'] !== CONTRACT_TRACE_FORMAT) {
    fail(`${path}: not a check-store contract trace (format ${JSON.stringify(record['format'])}); end-to-end traces replay with \`resumecheck replay\``);
  }
  if (record['formatVersion'] !== CONTRACT_TRACE_FORMAT_VERSION) {
    fail(`${path}: contract trace format version ${String(record['formatVersion'])}, this resumecheck reads ${CONTRACT_TRACE_FORMAT_VERSION}`);
  }
  const choices = record['choices'];
  if (!Array.isArray(choices) || choices.length > 10_000 || !choices.every((choice) => Number.isInteger(choice) && choice >= 0 && choice < 1_000_000)) {
    fail(`${path}: choices must be an array of whole numbers from 0 to 999999`);
  }
  const config = record['config'] as Record<string, unknown> | null;
  const numbers = ['stepsMax', 'sessionsPerEpochMax', 'postStreamsPerSessionMax', 'eventsPerStreamMax', 'restartsMax', 'windowEventsMax'];
  if (
    typeof config !== 'object' ||
    config === null ||
    typeof config['seed'] !== 'string' ||
    typeof config['shared'] !== 'boolean' ||
    !numbers.every((key) => Number.isInteger(config[key]) && (config[key] as number) >= 0 && (config[key] as number) <= 10_000) ||
    (config['callTimeoutMs'] !== undefined && !(Number.isInteger(config['callTimeoutMs']) && (config['callTimeoutMs'] as number) >= 1 && (config['callTimeoutMs'] as number) <= 600_000)) ||
    (config['durable'] !== undefined && typeof config['durable'] !== 'boolean')
  ) {
    fail(`${path}: config must give seed, shared and the contract's bounds`);
  }
  const store = record['store'] as Record<string, unknown> | null;
  if (store !== null && (typeof store !== 'object' || typeof store['path'] !== 'string' || (store['exportName'] !== null && typeof store['exportName'] !== 'string'))) {
    fail(`${path}: store must be null or { path, exportName }`);
  }
  const verdict = record['verdict'] as Record<string, unknown> | null;
  if (typeof verdict !== 'object' || verdict === null || !(CONTRACT_PROPERTY_NAMES as readonly unknown[]).includes(verdict['property'])) {
    fail(`${path}: verdict must name a contract property`);
  }
  return {
    format: CONTRACT_TRACE_FORMAT,
    formatVersion: CONTRACT_TRACE_FORMAT_VERSION,
    resumecheckVersion: String(record['resumecheckVersion'] ?? 'unknown'),
    store: store === null ? null : { path: store['path'] as string, exportName: (store['exportName'] as string | null) ?? null },
    // Traces written before --call-timeout and --durable existed ran with the defaults.
    config: { callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS, durable: false, ...(config as object) } as ContractConfig,
    choices: choices as number[],
    steps: Array.isArray(record['steps']) ? (record['steps'] as ContractStep[]) : [],
    verdict: { property: verdict['property'] as ContractPropertyName, step: Number(verdict['step'] ?? 0), explanation: String(verdict['explanation'] ?? '') },
    shrink: (record['shrink'] as ContractTrace['shrink']) ?? null,
  };
}
