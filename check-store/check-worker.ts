// The worker thread check-store runs a store in, so that a store's process.exit, busy loop or uncaught error from its
// timers cannot take the checker down silently: the main thread (contained-check.ts) watches the worker, and this side
// reports each violation as it is found, names every store call in a shared slot, and beats while its loop turns.

import { parentPort, workerData } from 'node:worker_threads';
import { startBeating } from '../targets/module/heartbeat.ts';
import { moduleSource } from '../targets/module/module.target.ts';
import { type StoreModuleRef, StoreModuleError, firstLine } from '../targets/module/store-module.ts';
import { callSlotWriter, installStoreCallSlot } from '../targets/module/call-slot.ts';
import { type CheckEventStoreOptions, type StoreCheckProgress, advanceStoreCheck } from './check-event-store.ts';
import { type RecycleBounds, wearGauge } from '../targets/module/wear.ts';
import { LEAKED_HANDLES_WARNING, type WorkerReport, type WorkerRequest } from './contained-check.ts';

/** The kinds of handle and request this thread's event loop holds, counted. */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The handles left open since `before`, as a teardown warning; null when none were. */
function leakedResources(before: Map<string, number>, after: Map<string, number>): string | null {
  const left = [...after].filter(([kind, count]) => count > (before.get(kind) ?? 0)).map(([kind, count]) => `${kind} ×${count - (before.get(kind) ?? 0)}`);
  if (left.length === 0) return null;
  return `${LEAKED_HANDLES_WARNING} after its runs ended (${left.join(', ')}): close them in an onRunEnd hook or the module's close(); the CLI ends them with its worker thread`;
}

async function run(port: NonNullable<typeof parentPort>): Promise<void> {
  const { ref, options, slot: buffer, progress, recycle } = workerData as { ref: StoreModuleRef; options: CheckEventStoreOptions; slot: SharedArrayBuffer; progress: StoreCheckProgress; recycle: RecycleBounds };
  const slot = callSlotWriter(buffer);
  // Every store call of the module source made below is named in the slot, for the verdict if the store stops the thread.
  installStoreCallSlot(slot);
  const stopBeat = startBeating(() => slot.beat());
  let stopped = false;
  port.on('message', (message: WorkerRequest) => {
    if (message.type === 'stop') stopped = true;
  });
  const send = (report: WorkerReport): void => port.postMessage(report);
  const before = resourceCounts();
  // The evidence that a fresh thread should go on (targets/module/wear.ts).
  const gauge = wearGauge(recycle);
  try {
    const advanced = await advanceStoreCheck(
      moduleSource(ref),
      { ...options, stopped: () => stopped, onViolation: (violation) => send({ type: 'violation', violation }), onDiscovery: (discovery) => send({ type: 'discovery', discovery }) },
      progress,
      recycle.runs,
      { pause: gauge.worn },
    );
    // One warning per check: each thread's runs leave their own handles, and the first thread to see some says so.
    const leaked = advanced.teardown.some((line) => line.startsWith(LEAKED_HANDLES_WARNING)) ? null : leakedResources(before, resourceCounts());
    send({ type: 'progress', progress: leaked === null ? advanced : { ...advanced, teardown: [...advanced.teardown, leaked] } });
  } catch (error) {
    if (error instanceof StoreModuleError) send({ type: 'bad-input', message: error.message });
    else send({ type: 'crash', message: firstLine(error), stack: error instanceof Error ? (error.stack ?? null) : null });
  } finally {
    stopBeat();
    port.close();
  }
}

if (parentPort !== null) await run(parentPort);
