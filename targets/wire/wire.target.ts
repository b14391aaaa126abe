// The black-box HTTP target: any MCP Streamable HTTP server, in any language, reached over real sockets at a URL
// (`--url`), optionally started, restarted and stopped by resumecheck (`--serve "CMD"`). Its probe tools, if it has
// them (docs/probe-tools.md), call back the control endpoint, so the simulator drives their executions as in process.
// With `--serve-node "CMD" --nodes N` the command is started N times, each process a node on a port of its own, behind
// resumecheck's balancer (targets/multi-node), which sends each request to one node's URL; a node crashes (its process
// killed) and boots again as a fault, the store the processes share (Redis at $REDIS_URL, say) outliving it.

import { request as httpRequest } from 'node:http';
import type { ActionKind } from '../../sim/config.ts';
import { MODERN_REVISION } from '../../sim/config.ts';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION, PROTOCOL_VERSION_META_KEY } from '../../sim/tools.ts';
import { revisionHeadersOf } from '../sdk/revision-headers.ts';
import type { Incarnation, JsonRpcMessage, NodeBootOptions, NodeInstance, ProtocolEra, ServerInstance, Target, TargetHost, TargetOptions, TargetRun } from '../target.ts';
import { type ServedNodes, servedNodesName } from '../multi-node/topology.ts';
import { deploymentRun } from '../multi-node/multi-node.target.ts';
import { TOOL_NAMES } from '../target.ts';
import { createSseParser } from '../sdk/sse-parser.ts';
import { type ControlEndpoint, startControlEndpoint } from './control-endpoint.ts';
import { type EchoTool, echoCandidates, echoMarker, markedProvenance } from './echo-marker.ts';
import { type ServerProcess, createServerProcess, freePorts } from './server-process.ts';
import { WireFault, WireInputError } from './wire-error.ts';
import { DEFAULT_SETTLE_TIMING, type SettleTiming, type WireContext, WireServer, type WireStats } from './wire-server.ts';
import { parseWireUrl, portOf } from './wire-url.ts';

/** The probe tools a server must list to be driven with cooperation (the simulator's three, and notify). */
export const PROBE_TOOL_NAMES: readonly string[] = [...TOOL_NAMES, 'notify'];

/** The header carrying the run's token on every request: a server may keep each run's state apart by it. */
export const RUN_HEADER = 'x-resumecheck-run';

/** Faults a server over the wire cannot be made to commit: only it decides when to expire or close. */
const NEVER_OVER_THE_WIRE: readonly ActionKind[] = ['serverClose', 'expire'];

/** How to reach the server. */
export interface WireTargetOptions {
  /** The server's MCP endpoint; default (with --serve) http://127.0.0.1:<free port>/mcp. */
  readonly url: string | null;
  /** A shell command starting the server, which reads its port from $PORT; null when it runs already. */
  readonly serve: string | null;
  readonly allowRemote: boolean;
  readonly timing?: Partial<SettleTiming>;
  /** The server's tool to send each call as, without the probe tools (echo-marker.ts); null: one named like an echo. */
  readonly echoTool?: string | null;
  /**
   * With `serve`: start it on this many nodes (processes of their own, each on its own port, the URL's path and host)
   * behind this balancer (`--serve-node`); absent: one process, reached directly.
   */
  readonly nodes?: ServedNodes;
}

/** A wire target: a Target, plus what it learnt and a stop for the server it started (also as `await using`). */
export interface WireTarget extends Target, AsyncDisposable {
  /** The server's URL (node 0's, on several nodes). */
  readonly url: URL;
  /** Each node's URL, node 0 first (the one URL on one node). */
  readonly nodeUrls: readonly URL[];
  /** The nodes `--serve-node` started, and the balancer in front of them; null on one process. */
  readonly deployment: ServedNodes | null;
  readonly timing: SettleTiming;
  readonly stats: WireStats;
  /** Whether the server lists the probe tools; known after the first run has opened. */
  readonly probe: boolean | null;
  /** The eras the server serves, found before the first run (see {@link WireTarget.prepare}); undefined before. */
  readonly eras: readonly ProtocolEra[] | undefined;
  /** Without the probe tools: the server's tool that echoes a marker back (echo-marker.ts), if it has one. */
  readonly echo: EchoTool | null;
  /**
   * Whether a session the server named outlives a restart of the served command (asked before the first run of a fuzz
   * that restarts it, see {@link WireTarget.prepare}): null when not asked (no restarts, no command, no named session).
   */
  readonly sessionsOutliveRestart: boolean | null;
  /** The action kinds this server cannot be driven through, and why, for the report. */
  unsupported(): readonly { readonly kind: ActionKind; readonly why: string }[];
  /** Once `signal` is aborted (a stop), the run under way ends at its next operation with WireInterrupted (wire-error.ts). */
  interruptOn(signal: AbortSignal): void;
  /**
   * Starts the served server (if any) and the control endpoint, and asks the server for its tools; a run's `open` does
   * it too. With `restarts` (the runs will restart the served command), it also restarts it once to ask whether a session
   * it named before is served after: a server that keeps its sessions in storage (Redis) does, and a restart then ends
   * none. Bad input (a command that never listens, nothing answering at the URL) throws {@link WireInputError}.
   */
  prepare(options?: { readonly restarts?: boolean }): Promise<void>;
  /** Stops the served server (if any) and the control endpoint. Always call it, in `finally`. */
  stop(): Promise<void>;
}

interface Exchange {
  readonly status: number;
  readonly sessionId: string | null;
  /** The JSON-RPC response to the request, from a JSON body or the SSE stream; null when none came. */
  readonly response: JsonRpcMessage | null;
}

/**
 * One plain request/response exchange with a bounded wait, for the tools check before the first run: its answer is read
 * from a JSON body or from an SSE stream, which is left once the response to the request is in.
 */
function exchange(url: URL, headers: Record<string, string>, body: JsonRpcMessage, timeoutMs: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const outgoing = httpRequest(url, {
      method: 'POST',
      agent: false,
      timeout: timeoutMs,
      headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
    });
    outgoing.once('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)));
    outgoing.once('response', (response) => {
      const streaming = (response.headers['content-type'] ?? '').includes('text/event-stream');
      const parser = createSseParser({ malformedData: 'report' });
      const decoder = new TextDecoder();
      const chunks: Buffer[] = [];
      let bytes = 0;
      let answer: JsonRpcMessage | null = null;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes < 1 << 20) chunks.push(chunk);
        if (!streaming || answer !== null) return;
        for (const frame of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (answer === null && frame.data !== null && 'id' in frame.data && frame.data['id'] === body['id']) answer = frame.data;
        }
        // An SSE answer to a plain request ends after its one response; stop reading once it is in.
        if (answer !== null) response.destroy();
      });
      const done = (): void => {
        const header = response.headers['mcp-session-id'];
        if (!streaming) {
          try {
            const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (typeof value === 'object' && value !== null && !Array.isArray(value)) answer = value as JsonRpcMessage;
          } catch {
            // No JSON body (a 202 to a notification, an HTML error page): no response.
          }
        }
        resolve({ status: response.statusCode ?? 0, sessionId: typeof header === 'string' ? header : null, response: answer });
      };
      response.once('end', done);
      response.once('close', done);
    });
    outgoing.end(payload);
  });
}

/** What the check before the first run learnt: the eras the server serves, its probe tools, else its echo tool. */
interface ServerFound {
  readonly eras: readonly ProtocolEra[];
  readonly probe: boolean;
  readonly echo: EchoTool | null;
  /** The headers of a request in the check's legacy session, when the server named one. */
  readonly session: Record<string, string> | null;
}

/** The _meta envelope and headers of a 2026-07-28 request (no session), as the simulated modern client sends them. */
function modernRequest(headers: Record<string, string>, id: string, method: string, params: Record<string, unknown>): { headers: Record<string, string>; body: JsonRpcMessage } {
  const body: JsonRpcMessage = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION, [CLIENT_CAPABILITIES_META_KEY]: {} } } };
  return { headers: { ...headers, ...revisionHeadersOf({ method: 'POST', protocolVersion: MODERN_REVISION, body }) }, body };
}

/**
 * Asks the server what it serves, before the first run. The modern era: a 2026-07-28 tools/list without a session is
 * answered 200 with a tool list (a server of the 2025 revisions alone must answer a version it does not support with
 * 400). The legacy era: an initialize is answered 200. Then its tools, in a session of its own if it has sessions: the
 * probe tools if it lists every one; else the first tool named like an echo whose result, called with a marker, carries
 * the marker back.
 */
async function inspectServer(url: URL, headers: Record<string, string>, timeoutMs: number, echoTool: string | null): Promise<ServerFound> {
  let modernList: JsonRpcMessage | null = null;
  try {
    const { headers: modernHeaders, body } = modernRequest(headers, 'resumecheck-probe-modern', 'tools/list', {});
    const answered = await exchange(url, modernHeaders, body, timeoutMs);
    const tools = (answered.response?.['result'] as { tools?: unknown } | undefined)?.tools;
    if (answered.status === 200 && Array.isArray(tools)) modernList = answered.response;
  } catch {
    // Nothing answered it: the initialize below says whether anything answers at all.
  }
  let init: Exchange | null = null;
  try {
    init = await exchange(url, headers, {
      jsonrpc: '2.0',
      id: 'resumecheck-probe-1',
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'resumecheck', version: '0.1.0' } },
    }, timeoutMs);
  } catch (error) {
    if (modernList === null) throw new WireInputError(`nothing answers an MCP initialize at ${url.href} (${(error as Error).message})`);
  }
  const legacy = init !== null && init.status === 200;
  if (!legacy && modernList === null) {
    throw new WireInputError(`${url.href} answered initialize with HTTP ${init?.status ?? 0}, not 200, and a 2026-07-28 tools/list with no tool list: is it an MCP Streamable HTTP endpoint?`);
  }
  const eras: ProtocolEra[] = [...(legacy ? (['legacy'] as const) : []), ...(modernList === null ? [] : (['modern'] as const))];
  const sessionId = legacy ? init!.sessionId : null;
  // The headers of the check's requests in its legacy session; null when the server has no legacy era.
  const inSession = legacy ? { ...headers, ...(sessionId === null ? {} : { 'mcp-session-id': sessionId }), 'mcp-protocol-version': PROTOCOL_VERSION } : null;
  const named = sessionId === null ? null : inSession;
  // How a request of the check is sent: in the check's legacy session, or as a 2026-07-28 request.
  const ask = async (id: string, method: string, params: Record<string, unknown>): Promise<JsonRpcMessage | null> => {
    if (inSession !== null) return (await exchange(url, inSession, { jsonrpc: '2.0', id, method, params }, timeoutMs)).response;
    const modern = modernRequest(headers, id, method, params);
    return (await exchange(url, modern.headers, modern.body, timeoutMs)).response;
  };
  try {
    if (inSession !== null) await exchange(url, inSession, { jsonrpc: '2.0', method: 'notifications/initialized' }, timeoutMs);
    const list = legacy ? await ask('resumecheck-probe-2', 'tools/list', {}) : modernList;
    const listed = (list?.['result'] ?? null) as { tools?: { name?: unknown }[] } | null;
    const names = new Set((listed?.tools ?? []).map((tool) => tool?.name));
    if (PROBE_TOOL_NAMES.every((name) => names.has(name))) return { eras, probe: true, echo: null, session: named };
    let attempt = 0;
    for (const echo of echoCandidates(listed, echoTool)) {
      attempt += 1;
      const marker = echoMarker({ run: 'tools-check', epoch: 0, callId: `try${attempt}`, sessionId: sessionId ?? '' });
      const answer = await ask(`resumecheck-probe-echo-${attempt}`, 'tools/call', { name: echo.name, arguments: { [echo.argument]: marker } });
      if (markedProvenance(answer, 'tools-check')?.callId === `try${attempt}`) return { eras, probe: false, echo, session: named };
    }
    if (echoTool !== null) throw new WireInputError(`--echo-tool ${echoTool}: the server lists no such tool taking one string argument, or its result did not carry back what it was given`);
    return { eras, probe: false, echo: null, session: named };
  } catch (error) {
    if (error instanceof WireInputError) throw error;
    return { eras, probe: false, echo: null, session: named };
  }
}

/** Creates the wire target. Checks the URL now (bad input: {@link WireInputError}); starts nothing until a run opens. */
export async function createWireTarget(options: WireTargetOptions): Promise<WireTarget> {
  if (options.url === null && options.serve === null) throw new WireInputError('give --url, --serve "CMD", or both');
  if (options.serve !== null && options.serve.trim() === '') throw new WireInputError('--serve needs a command');
  const topology = options.nodes ?? null;
  const nodes = topology?.count ?? 1;
  // Without a URL, every node's port at once (held until all are found: each another).
  const ports = options.url === null ? await freePorts(nodes) : [];
  const url = parseWireUrl(options.url ?? `http://127.0.0.1:${ports[0]!}/mcp`, { allowRemote: options.allowRemote });
  if (url.protocol === 'https:' && options.serve !== null) throw new WireInputError('--serve starts a plain HTTP server: give an http: --url');
  if (topology !== null && options.serve === null) throw new WireInputError('--nodes over the wire goes with --serve-node "CMD": resumecheck starts the nodes');
  const timing: SettleTiming = { ...DEFAULT_SETTLE_TIMING, ...options.timing };
  const stats: WireStats = { settles: 0, settlesCutShort: 0, cutShortFor: [], settleMs: 0 };
  // Node 0 listens at the URL; each other node at the same host and path on a free port of its own, not the URL's.
  const others = ports.length > 0 ? ports.slice(1) : await freePorts(nodes - 1, url.port === '' ? [] : [Number(url.port)]);
  const nodeUrls: URL[] = [
    url,
    ...others.map((port) => {
      const other = new URL(url.href);
      other.port = String(port);
      return other;
    }),
  ];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const processes: ServerProcess[] = options.serve === null ? [] : nodeUrls.map(() => createServerProcess(options.serve!, host));
  const served: ServerProcess | null = processes[0] ?? null;
  let control: ControlEndpoint | null = null;
  let probe: boolean | null = null;
  let echo: EchoTool | null = null;
  let eras: readonly ProtocolEra[] | undefined;
  let session: Record<string, string> | null = null;
  let sessionsOutliveRestart: boolean | null = null;
  let runs = 0;
  let started = false;
  let interrupt: AbortSignal | null = null;

  const start = async (token: string, epoch: number, node = 0): Promise<void> => {
    const server = processes[node];
    if (server === undefined) return;
    const extra = { RESUMECHECK_RUN: token, ...(topology === null ? {} : { RESUMECHECK_NODE: String(node + 1) }) };
    await server.start({ port: portOf(nodeUrls[node]!), epoch, extra, listenMsMax: timing.listenMsMax });
  };
  const faultOf = (node: number): string | null => processes[node]?.fault ?? null;
  /**
   * Each node's last start, which a node booted on it waits for before its first request: a node that crashed is started
   * again when it boots, and the start may still be under way when the next run boots it (no request having waited).
   */
  const starts: (Promise<void> | undefined)[] = [];
  const startNode = (token: string, epoch: number, node: number): Promise<void> => {
    const starting = start(token, epoch, node);
    starts[node] = starting;
    starting.catch(() => {});
    return starting;
  };

  const unsupported = (): { kind: ActionKind; why: string }[] => [
    ...NEVER_OVER_THE_WIRE.map((kind) => ({ kind, why: 'only the server decides when it expires a session or closes a connection' })),
    // The in-process servers fail or cancel a tool mid-stream on request (ServerInstance.abortExecution); a server over
    // the wire runs its own tools, so that fault is never driven here.
    { kind: 'abortTool' as const, why: 'a tool over the wire fails or is cancelled only when the server decides it' },
    ...(served === null ? [{ kind: 'restart' as const, why: 'without --serve resumecheck cannot restart the server' }] : []),
    ...(probe === false ? [{ kind: 'notify' as const, why: 'the server has no probe tools (docs/probe-tools.md)' }] : []),
  ];

  const target: WireTarget = {
    name: options.serve === null ? `url:${url.href}` : topology === null ? `serve:${options.serve}` : servedNodesName(options.serve, topology),
    kind: 'module',
    realTime: true,
    description:
      topology === null
        ? `an MCP server over the wire at ${url.href}${options.serve === null ? '' : ` (started as ${options.serve})`}`
        : `an MCP server started as ${options.serve} on ${topology.count} nodes (${nodeUrls.map((node) => node.host).join(', ')}) behind a ${topology.balancer} balancer`,
    breaks: [],
    url,
    nodeUrls,
    deployment: topology,
    timing,
    stats,
    get probe() {
      return probe;
    },
    get echo() {
      return echo;
    },
    get eras() {
      return eras;
    },
    get sessionsOutliveRestart() {
      return sessionsOutliveRestart;
    },
    unsupported,
    async prepare(prepared) {
      if (!started) {
        started = true;
        await Promise.all(processes.map((_process, node) => start('r0', 1, node)));
      } else {
        const fault = processes.map((server) => server.fault).find((found) => found !== null);
        if (fault !== undefined) throw new WireFault(fault);
      }
      control ??= await startControlEndpoint();
      if (probe === null) {
        const found = await inspectServer(url, { [RUN_HEADER]: 'probe-check' }, timing.headMsMax, options.echoTool ?? null);
        probe = found.probe;
        echo = found.echo;
        eras = found.eras;
        session = found.session;
      }
      if (prepared?.restarts === true && sessionsOutliveRestart === null && session !== null && processes.length > 0) {
        // The check's session, made before the restart, outlived it when its ping is answered (2xx): a 404 is a session
        // the restart ended, and so is any other refusal (server-everything answers a session it no longer has 400).
        await Promise.all(processes.map((server) => server.stop()));
        await Promise.all(processes.map((_process, node) => start('r0', 1, node)));
        const after = await exchange(url, session, { jsonrpc: '2.0', id: 'resumecheck-probe-restart', method: 'ping' }, timing.headMsMax).catch(() => null);
        sessionsOutliveRestart = after !== null && after.status >= 200 && after.status < 300;
      }
    },
    async open(runOptions: TargetOptions): Promise<TargetRun> {
      runs += 1;
      const token = `r${runs}`;
      await target.prepare();
      if (control === null || probe === null) throw new Error('assertion: prepare left the control endpoint or the probe check undone');
      const endpoint = control;
      const kinds = unsupported().map(({ kind }) => kind);
      // The server (node 0 on one node) or each node of the deployment, as booted last: the control endpoint's
      // callbacks reach the one whose tool called back.
      const servers: (WireServer | null)[] = [];
      endpoint.onActivity = () => {
        for (const server of servers) server?.touch();
      };
      endpoint.onResult = (callId, node, execution) => servers[node]?.resultHandedOut(callId, execution);
      endpoint.onNotification = (callId, message, node, execution) => servers[node]?.notificationHandedOut(callId, message, execution);
      endpoint.executionStarted = (callId, reported, node) => servers[node]?.executionStarted(callId, reported) ?? reported;
      endpoint.executionNumbered = (callId, execution, node) => servers[node]?.executionNumbered(callId, execution);
      // The calls sent under marked request IDs in this run, by every node and incarnation (a server without probe or echo).
      const sentCalls = new Map<string, string>();
      const contextOf = (node: number | null, ready?: Promise<void>): WireContext => {
        const index = node ?? 0;
        return {
          url: nodeUrls[index]!,
          control: endpoint,
          controlUrl: endpoint.urlFor(token, node ?? undefined),
          headers: { [RUN_HEADER]: token },
          timing,
          stats,
          probe: probe!,
          echo,
          run: token,
          sentCalls,
          ...(interrupt === null ? {} : { interrupt }),
          fault: () => faultOf(index),
          async restart(epoch) {
            const server = processes[index];
            if (server === undefined) throw new Error('assertion: restart offered without --serve');
            await server.stop();
            // A node of a deployment is started again when the next incarnation boots it (bootNode), so that the nodes
            // start side by side and each waits for its own at its first operation; one process starts here.
            if (node === null) await start(token, epoch, index);
          },
          ...(node === null ? {} : { node: { index: node, crash: () => processes[node]!.stop({ kill: true }) } }),
          ...(ready === undefined ? {} : { ready }),
        };
      };
      let boundEpoch = 0;
      const run: TargetRun = {
        sync: false,
        unsupported: kinds,
        // The echo tool answers a call at once, as a server without the probe tools and without an echo answers a call of a
        // tool it does not have: only the lossy call gets between its first event and its answer.
        ...(probe === false ? { answersWithinRequest: true } : {}),
        ...(sessionsOutliveRestart === true ? { sessionsOutliveRestart: true } : {}),
        boot(incarnation: Incarnation, host: TargetHost): ServerInstance {
          endpoint.bind(token, host);
          const server = new WireServer(contextOf(null), host, incarnation.epoch);
          servers[0] = server;
          return server;
        },
        ...(topology === null
          ? {}
          : {
              bootNode(incarnation: Incarnation, host: TargetHost, { node }: NodeBootOptions): NodeInstance {
                // A new incarnation of the deployment binds the run afresh; a node booted again after its crash joins it.
                if (incarnation.epoch !== boundEpoch) {
                  boundEpoch = incarnation.epoch;
                  endpoint.bind(token, host);
                }
                endpoint.bindNode(node, host);
                // A node whose process is down (it crashed, or the deployment restarted) is started again; its first operation
                // waits for it to listen.
                const ready = processes[node]!.pid === null ? startNode(token, incarnation.epoch, node) : starts[node];
                const server = new WireServer(contextOf(node, ready), host, incarnation.epoch);
                servers[node] = server;
                return server;
              },
            }),
        close() {
          for (const server of servers) server?.drop();
          endpoint.unbind();
        },
      };
      return topology === null ? run : deploymentRun(run, { nodes: topology.count, balancer: topology.balancer, storeLagSteps: 0 }, runOptions.seed);
    },
    interruptOn(signal) {
      interrupt = signal;
    },
    async stop() {
      await Promise.all(processes.map((server) => server.stop()));
      await control?.close();
      control = null;
    },
    [Symbol.asyncDispose]() {
      return target.stop();
    },
  };
  return target;
}
