// The probe server's command line (examples/probe-server.mjs): serves a resumecheck target over HTTP on 127.0.0.1,
// either one of the built-in targets with its planted bug (`--target`), or the real SDK app with the probe tools
// registered by the one-line helper (`--sdk`, with the event store it is given).

// Every module but the one asked for is loaded lazily (the target through the lazy registry, each SDK app on its own):
// resumecheck starts this process again at every restart, and the whole set of targets and both SDKs took most of the
// start-up.

import { parseArgs } from 'node:util';
import { TARGET_ENTRIES, targetEntry } from '../targets/registry.ts';
import { SDK_APP_STORES, type SdkAppStore } from './sdk-app-stores.ts';
import type { ServedTarget } from './serve-target.ts';

const USAGE = `usage: PORT=3000 node examples/probe-server.mjs [--target NAME | --sdk [--store per-session|shared|none|redis|redis-unscoped] [--store-write-latency-ms N] [--tools probe|echo] | --sdk2 | --mcp-handler [--tools echo|probe]] [--window N] [--port N]
  --target NAME  a built-in target served over HTTP (default: reference); \`resumecheck targets\` lists them
  --sdk          the MCP SDK 1.32.2 app (McpServer per session + its transport) with registerProbeTools
  --sdk2         the MCP SDK 2.4.0 app (@modelcontextprotocol/server) with registerProbeTools
  --mcp-handler  mcp-handler 2.4.0's createMcpHandler with an \`echo\` tool of its own (no probe tools), both eras;
                 with --tools probe, the probe tools instead
  --store S      with --sdk: the SDK example's InMemoryEventStore per session (default) or shared by all sessions, or none;
                 or Redis at $REDIS_URL, shared by every process, scoped to each session (redis) or keyed by stream alone (redis-unscoped, a bug)
  --sessions S   with --sdk and a Redis store: each process keeps its own sessions (memory, the default: a deployment
                 needs a sticky balancer), or every process serves every session, kept in Redis (redis)
  --store-write-latency-ms N  with --sdk and a store: each write to it waits N ms (0–10000) first, as a store that
                 acknowledges a write once replicated does
  --tools T      with --sdk: the probe tools (default), or only an \`echo\` tool of its own (T = echo), as a user's server;
                 with --mcp-handler: the echo (default) or the probe tools (T = probe)`;

function fail(message: string): never {
  process.stderr.write(`probe server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Runs the probe server until SIGTERM or SIGINT. */
export async function runProbeServer(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { target: { type: 'string' }, sdk: { type: 'boolean' }, sdk2: { type: 'boolean' }, 'mcp-handler': { type: 'boolean' }, store: { type: 'string' }, sessions: { type: 'string' }, 'store-write-latency-ms': { type: 'string' }, tools: { type: 'string' }, window: { type: 'string' }, port: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message.split('\n')[0]!);
  }
  const portText = values.port ?? env['PORT'];
  if (portText === undefined || !/^\d{1,5}$/.test(portText) || Number(portText) > 65535) fail('give the port as $PORT or --port');
  const port = Number(portText);
  const windowText = values.window ?? '2';
  if (!/^\d{1,4}$/.test(windowText) || Number(windowText) < 1) fail('--window takes a whole number from 1');
  const epochText = env['RESUMECHECK_EPOCH'];
  const token = env['RESUMECHECK_RUN'];
  const startedFor = token !== undefined && epochText !== undefined && /^\d{1,6}$/.test(epochText) ? { token, epoch: Number(epochText) } : null;
  let served: ServedTarget;
  let what: string;
  if (values['mcp-handler'] === true) {
    if (values.target !== undefined || values.sdk === true || values.sdk2 === true || values.store !== undefined || values.sessions !== undefined || values['store-write-latency-ms'] !== undefined) fail('--mcp-handler goes alone, or with --tools');
    const tools = values.tools ?? 'echo';
    if (tools !== 'probe' && tools !== 'echo') fail('--tools takes probe or echo');
    // A dev dependency of resumecheck's: an installed resumecheck has it only when the user installed it too.
    const app = await import('./mcp-handler-app.ts').catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') fail('--mcp-handler needs the mcp-handler package: npm install mcp-handler@2.4.0');
      throw error;
    });
    const { serveMcpHandlerApp } = app;
    served = await serveMcpHandlerApp({ port, tools });
    what = `mcp-handler 2.4.0 with ${tools === 'probe' ? 'the probe tools' : 'an echo tool'}`;
  } else if (values.sdk2 === true) {
    if (values.target !== undefined || values.sdk === true || values.store !== undefined || values.sessions !== undefined || values['store-write-latency-ms'] !== undefined || values.tools !== undefined) fail('--sdk2 goes alone');
    const { serveSdk2App } = await import('./sdk2-app.ts');
    served = await serveSdk2App({ port });
    what = 'the SDK 2.4.0 app with the probe tools';
  } else if (values.sdk === true) {
    if (values.target !== undefined) fail('give --target or --sdk, not both');
    const store = (values.store ?? 'per-session') as SdkAppStore;
    if (!SDK_APP_STORES.includes(store)) fail(`--store takes ${SDK_APP_STORES.join(' or ')}`);
    if (store.startsWith('redis') && (env['REDIS_URL'] ?? '') === '') fail(`--store ${store} needs $REDIS_URL (redis://127.0.0.1:PORT)`);
    const tools = values.tools ?? 'probe';
    if (tools !== 'probe' && tools !== 'echo') fail('--tools takes probe or echo');
    const latencyText = values['store-write-latency-ms'] ?? '0';
    if (!/^\d{1,5}$/.test(latencyText) || Number(latencyText) > 10_000) fail('--store-write-latency-ms takes a whole number of milliseconds from 0 to 10000');
    const storeWriteLatencyMs = Number(latencyText);
    if (storeWriteLatencyMs > 0 && store === 'none') fail('--store-write-latency-ms needs a store');
    const sessions = values.sessions ?? 'memory';
    if (sessions !== 'memory' && sessions !== 'redis') fail('--sessions takes memory or redis');
    if (sessions === 'redis' && !store.startsWith('redis')) fail('--sessions redis needs a Redis store (--store redis or redis-unscoped)');
    if (sessions === 'redis') {
      const { serveSdkSharedSessionsApp } = await import('./sdk-shared-sessions-app.ts');
      served = await serveSdkSharedSessionsApp({ port, redisUrl: env['REDIS_URL']!, scoped: store === 'redis', tools, storeWriteLatencyMs });
    } else {
      const { serveSdkApp } = await import('./sdk-app.ts');
      served = await serveSdkApp({ port, store, tools, storeWriteLatencyMs, ...(env['REDIS_URL'] === undefined ? {} : { redisUrl: env['REDIS_URL'] }) });
    }
    what = `the SDK app with ${tools === 'echo' ? 'an echo tool only' : 'the probe tools'}, store ${store}${storeWriteLatencyMs > 0 ? ` (${storeWriteLatencyMs} ms a write)` : ''}${sessions === 'redis' ? ', sessions in Redis' : ''}`;
  } else {
    if (values.store !== undefined || values.sessions !== undefined || values['store-write-latency-ms'] !== undefined || values.tools !== undefined) fail('--store, --sessions, --store-write-latency-ms and --tools go with --sdk');
    const name = values.target ?? 'reference';
    const entry = targetEntry(name);
    if (entry === undefined) fail(`unknown target ${JSON.stringify(name)}; known: ${TARGET_ENTRIES.map((known) => known.name).join(', ')}`);
    const [target, { serveTarget }] = await Promise.all([entry.load(), import('./serve-target.ts')]);
    served = await serveTarget(target, { port, windowEventsMax: Number(windowText), startedFor });
    what = `target ${name}`;
  }
  process.stdout.write(`probe server: ${what} on http://127.0.0.1:${served.port}/mcp\n`);
  // Stopped as a test server is: at once. The OS closes every socket; a graceful close would wait on the very
  // connections (open SSE streams, tools waiting on the control endpoint) whose fate resumecheck is checking.
  const stop = (): void => {
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
