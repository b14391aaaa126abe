// One worker thread of a breadth-first search (sim/search/explore-workers.ts starts it): opens its own run of the target
// described in its workerData (built through the CLI's resolver) and judges the chunks of the last depth it claims, answering with plain data.

import { parentPort, workerData } from 'node:worker_threads';
import { checkedProperties } from '../../properties/index.ts';
import type { PropertyName } from '../../properties/names.ts';
import type { SimConfig } from '../config.ts';
import { SteppedRun } from '../engine.ts';
import { EXPLORE_WORKER_MARK, type ExploreWorkerReply, type LevelMessage, judgeClaimed, keyedBuffers, levelOf } from './explore-workers.ts';
import { KeyNames } from './state-key.ts';
import { Walker } from './frontier-search.ts';
import { type InProcessDescription, resolveTarget, targetNameOf } from '../../targets/resolve-target.ts';

interface ExploreWorkerData {
  readonly mark: string;
  readonly target: InProcessDescription;
  readonly config: SimConfig;
  readonly only: PropertyName | null;
  readonly independence: boolean;
}

async function open(data: ExploreWorkerData): Promise<Walker> {
  const target = await resolveTarget(data.target);
  const run = await SteppedRun.open(target, data.config, checkedProperties(data.only ?? undefined));
  if (run === null) throw new Error(`explore worker: ${targetNameOf(data.target)} is not a synchronous target`);
  return new Walker(run, data.independence);
}

const port = parentPort;
const data = workerData as Partial<ExploreWorkerData> | null;
if (port !== null && data !== null && typeof data === 'object' && data.mark === EXPLORE_WORKER_MARK && typeof data.target === 'object' && data.target !== null) {
  const reply = (message: ExploreWorkerReply): void => port.postMessage(message);
  const failed = (error: unknown): void => reply({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  open(data as ExploreWorkerData).then((walker) => {
    const context = { names: new KeyNames() };
    port.on('message', (message: LevelMessage) => {
      try {
        const level = levelOf(message);
        judgeClaimed(walker, { ...message, level }, context, (chunk, result) => {
          if (result.kind === 'keyed') port.postMessage({ ...result, chunk } satisfies ExploreWorkerReply, keyedBuffers(result.keyed));
          else reply({ ...result, chunk });
        });
        reply({ kind: 'judged' });
      } catch (error) {
        failed(error);
      }
    });
    reply({ kind: 'ready' });
  }, failed);
}
