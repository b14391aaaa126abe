// `resumecheck findings-page --line 1|2`: the findings page of an SDK line, made from a matrix of the line's targets
// and the corpus traces of them, every finding charged to a component (cli/findings-page.ts). Writes the page and its
// data under --out (default docs/findings), each atomically; a signal writes nothing.

import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sharedWallMs } from '../sim/clock.ts';
import { DEFAULT_CONFIG } from '../sim/config.ts';
import { WORKERS_MAX } from '../sim/search/fuzz.ts';
import { writeFileAtomically } from '../traces/store.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { DEFAULT_RUNS } from './commands.ts';
import { FINDINGS_FORMAT_VERSION, type FindingsData, SDK_LINES, type SdkLineName, dataFileName, makeFindingsData, pageFileName, renderFindingsPage } from './findings-page.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { defaultMatrixWorkers } from './matrix.command.ts';
import { checkOutDir } from './output-paths.ts';
import { UsageError, parseWhole } from './usage-error.ts';

/** Where the pages live unless --out says otherwise. */
export const FINDINGS_DIR = 'docs/findings';

/** Runs `resumecheck findings-page`. */
export async function runFindingsPage({ values }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const from = values['from'] as string | undefined;
  if (from !== undefined) return renderFrom(from, values, io);
  const line = values['line'] as string | undefined;
  if (line === undefined || !(line in SDK_LINES)) throw new UsageError(`--line takes ${Object.keys(SDK_LINES).join(' or ')} (the SDK line whose page to make)`);
  const runs = values['runs'] === undefined ? DEFAULT_RUNS : parseWhole(values['runs'] as string, '--runs', 1, 10_000_000);
  const seed = (values['seed'] as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const workers = values['workers'] === undefined ? defaultMatrixWorkers() : parseWhole(values['workers'] as string, '--workers', 1, WORKERS_MAX);
  const out = (values['out'] as string | undefined) ?? FINDINGS_DIR;
  checkOutDir(out, '--out');
  const controller = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled !== null) process.exit(signal === 'SIGTERM' ? 143 : 130);
    signalled = signal;
    io.err(`resumecheck: ${signal}: stopping; nothing is written (${signal} again to exit at once)`);
    controller.abort();
  };
  if (io.signals === true) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  try {
    const data = await makeFindingsData({
      root: process.cwd(),
      line: line as SdkLineName,
      runs,
      seed,
      workers,
      signal: controller.signal,
      onRow: (row) => io.err(`resumecheck findings-page: row ${row.target} finished`),
    });
    if (signalled !== null) return signalled === 'SIGTERM' ? 143 : 130;
    const page = join(out, pageFileName(data.sdk));
    const dataPath = join(out, dataFileName(data.sdk));
    try {
      mkdirSync(dirname(dataPath), { recursive: true });
      writeFileAtomically(dataPath, `${JSON.stringify(data, null, 2)}\n`);
      writeFileAtomically(page, renderFindingsPage(data));
    } catch (error) {
      throw new UsageError(`cannot write into ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (values['json'] === true) io.out(JSON.stringify(jsonEnvelope('findings-page', { line, runs, seed, workers, out }, sharedWallMs() - startedMs, { page, data: dataPath, sdk: data.sdk })));
    else io.out(`wrote ${page} and ${dataPath} (${data.sdk}: ${data.rows.length} targets, ${data.traces.length} corpus traces)`);
    return 0;
  } finally {
    if (io.signals === true) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

/** `--from DATA`: the page rendered again from data kept (a change to the rendering, not to what was found). */
function renderFrom(from: string, values: ParsedArgs['values'], io: Io): number {
  for (const flag of ['line', 'runs', 'seed', 'workers']) {
    if (values[flag] !== undefined) throw new UsageError(`--from renders kept data; --${flag} goes with making it anew`);
  }
  let data: FindingsData;
  try {
    data = JSON.parse(readFileSync(from, 'utf8')) as FindingsData;
  } catch (error) {
    throw new UsageError(`--from ${from}: cannot be read as JSON (${(error as NodeJS.ErrnoException).code ?? 'not JSON'})`);
  }
  if (data?.format !== 'resumecheck-findings' || data.formatVersion !== FINDINGS_FORMAT_VERSION) {
    throw new UsageError(`--from ${from}: not findings data of format version ${FINDINGS_FORMAT_VERSION}`);
  }
  const out = (values['out'] as string | undefined) ?? FINDINGS_DIR;
  checkOutDir(out, '--out');
  const page = join(out, pageFileName(data.sdk));
  try {
    writeFileAtomically(page, renderFindingsPage(data));
  } catch (error) {
    throw new UsageError(`cannot write ${page} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  io.out(`wrote ${page} from ${from}`);
  return 0;
}
