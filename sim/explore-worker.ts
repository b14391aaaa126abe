// One worker thread of a breadth-first search (sim/explore-workers.ts starts it): opens its own run of the target
// named in its workerData and judges the chunks of the last depth it claims, answering with plain data.

import { parentPort, workerData } from 'node:worker_threads';
import { checkedProperties } from '../properties/index.ts';
import type { PropertyName } from '../properties/names.ts';
import type { SimConfig } from './config.ts';
import { SteppedRun } from './engine.ts';
import { EXPLORE_WORKER_MARK, type ExploreWorkerReply, type LevelMessage, judgeClaimed, keyedBuffers, levelOf } from './explore-workers.ts';
import { KeyNames } from './state-key.ts';
import { Walker } from './frontier-search.ts';
import { targetByName } from './target-by-name.ts';

interface ExploreWorkerData {
  readonly mark: string;
  readonly targetName: string;
  readonly config: SimConfig;
  readonly only: PropertyName | null;
  readonly independence: boolean;
}

async function open(data: ExploreWorkerData): Promise<Walker> {
  const target = await targetByName(data.targetName);
  if (target === null) throw new Error(`explore worker: no target named ${data.targetName}`);
  const run = await SteppedRun.open(target, data.config, checkedProperties(data.only ?? undefined));
  if (run === null) throw new Error(`explore worker: ${data.targetName} is not a synchronous target`);
  return new Walker(run, data.independence);
}

const port = parentPort;
const data = workerData as Partial<ExploreWorkerData> | null;
if (port !== null && data !== null && typeof data === 'object' && data.mark === EXPLORE_WORKER_MARK && typeof data.targetName === 'string') {
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
