// The one-line helper on both SDK lines: registerProbeTools on a 1.32.2 McpServer and on a 2.4.0 McpServer lists the
// four probe tools, runs a `work` call step by step under a real control endpoint (its progress sent related to the
// call, its result returned as given), and `notify` sends its message unrelated to any request.

import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemory1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemory2, McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ExecutionStart, TargetHost, ToolStep } from '../targets/target.ts';
import { sleepMs } from '../targets/wire/clock.ts';
import { startControlEndpoint } from '../targets/wire/control-endpoint.ts';
import { PROBE_TOOLS, registerProbeTools } from './probe-tools.ts';

interface Line {
  readonly name: string;
  /** Connects a server with the probe tools to a client; records every message the server sends. */
  connect(sent: unknown[]): Promise<{
    callTool(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<unknown>;
    /** A call the client cancels when `signal` fires (it sends notifications/cancelled; the server aborts the tool). */
    callCancellable(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
    listTools(): Promise<{ tools: { name: string }[] }>;
    close(): Promise<void>;
  }>;
}

const LINES: readonly Line[] = [
  {
    name: '1.32.2 (@modelcontextprotocol/sdk)',
    async connect(sent) {
      const [clientSide, serverSide] = InMemory1.createLinkedPair();
      const send = serverSide.send.bind(serverSide);
      serverSide.send = (message, options) => {
        sent.push(message);
        return send(message, options);
      };
      const server = new McpServer1({ name: 'probe-test', version: '0' }, { capabilities: { logging: {} } });
      registerProbeTools(server);
      await server.connect(serverSide);
      const client = new Client1({ name: 'probe-test-client', version: '0' });
      await client.connect(clientSide);
      return {
        callTool: (name, args, meta) => client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) }),
        callCancellable: (name, args, signal) => client.callTool({ name, arguments: args }, undefined, { signal }),
        listTools: () => client.listTools(),
        close: () => client.close(),
      };
    },
  },
  {
    name: '2.4.0 (@modelcontextprotocol/server)',
    async connect(sent) {
      const [clientSide, serverSide] = InMemory2.createLinkedPair();
      const send = serverSide.send.bind(serverSide);
      serverSide.send = (message, options) => {
        sent.push(message);
        return send(message, options);
      };
      const server = new McpServer2({ name: 'probe-test', version: '0' }, { capabilities: { logging: {} } });
      registerProbeTools(server);
      await server.connect(serverSide);
      const client = new Client2({ name: 'probe-test-client', version: '0' });
      await client.connect(clientSide);
      return {
        callTool: (name, args, meta) => client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) }),
        callCancellable: (name, args, signal) => client.callTool({ name, arguments: args }, { signal }),
        listTools: () => client.listTools(),
        close: () => client.close(),
      };
    },
  },
];

/** A host that hands out a progress notification, then a result, and records what the tools told it. */
function recordingHost(): TargetHost & { starts: ExecutionStart[]; steps: number; cancellations: number[] } {
  const host = {
    starts: [] as ExecutionStart[],
    steps: 0,
    frame() {},
    end() {},
    startExecution(start: ExecutionStart) {
      host.starts.push(start);
      return 7;
    },
    nextStep(execution: number): ToolStep {
      host.steps += 1;
      if (host.steps === 1) return { kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `progress of ${execution}` } } };
      return { kind: 'result', result: { content: [{ type: 'text', text: 'done' }] } };
    },
    cancelled: (execution: number) => {
      host.cancellations.push(execution);
    },
    cancellations: [] as number[],
    random: () => 0,
  };
  return host;
}

/**
 * Waits for the server to have done what the condition asks, looking again every 10 ms until it holds. No bound of its
 * own: vitest.config.ts's guard is the only one.
 */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleepMs(10);
}

describe.each(LINES)('registerProbeTools on the $name McpServer', (line) => {
  it('lists the probe tools and runs work under the control endpoint, step by step', async () => {
    const sent: unknown[] = [];
    const connection = await line.connect(sent);
    const endpoint = await startControlEndpoint();
    const host = recordingHost();
    endpoint.bind('t1', host);
    try {
      const { tools } = await connection.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...PROBE_TOOLS].sort());
      const call = connection.callTool('work', { callId: 'c1', control: endpoint.urlFor('t1') });
      await until(() => host.starts.length === 1);
      expect(host.starts[0]).toMatchObject({ callId: 'c1', tool: 'work' });
      // Nothing is sent until the simulator releases a step.
      await sleepMs(50);
      expect(host.steps).toBe(0);
      endpoint.release(7);
      await until(() => host.steps === 1 && endpoint.unacknowledged === 0);
      const progress = sent.find((message) => (message as { method?: string }).method === 'notifications/message');
      expect(progress).toMatchObject({ params: { data: 'progress of 7' } });
      endpoint.release(7);
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'done' }] });

      await connection.callTool('notify', { message: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'standalone' } } });
      expect(sent.some((message) => JSON.stringify(message).includes('"standalone"'))).toBe(true);
    } finally {
      await connection.close();
      await endpoint.close();
    }
  });

  it('sends each progress notification with the token its request arrived with, not the one the simulator wrote', async () => {
    const sent: unknown[] = [];
    const connection = await line.connect(sent);
    const endpoint = await startControlEndpoint();
    // The simulator writes its call ID as the token; a proxy on the way put its own in the request.
    const host = {
      ...recordingHost(),
      nextStep(): ToolStep {
        host.steps += 1;
        if (host.steps === 1) return { kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'c1', progress: 1, total: 2, message: 'rc 1 1 1 c1 s' } } };
        return { kind: 'result', result: { content: [{ type: 'text', text: 'done' }] } };
      },
    };
    endpoint.bind('t1', host);
    try {
      const call = connection.callTool('work', { callId: 'c1', control: endpoint.urlFor('t1') }, { progressToken: 'proxy-token-9' });
      await until(() => host.starts.length === 1);
      endpoint.release(7);
      await until(() => host.steps === 1 && endpoint.unacknowledged === 0);
      endpoint.release(7);
      await call;
      const progress = sent.filter((message) => (message as { method?: string }).method === 'notifications/progress');
      expect(progress).toHaveLength(1);
      expect(progress[0]).toMatchObject({ params: { progressToken: 'proxy-token-9', progress: 1, message: 'rc 1 1 1 c1 s' } });
    } finally {
      await connection.close();
      await endpoint.close();
    }
  });

  it('gets an answer, and returns an error result, when the simulator fails while answering its start', async () => {
    const connection = await line.connect([]);
    const endpoint = await startControlEndpoint();
    const host = {
      ...recordingHost(),
      startExecution(): number {
        throw new Error('assertion: planted in the test');
      },
    };
    endpoint.bind('t1', host);
    try {
      const result = (await connection.callTool('read', { callId: 'c1', control: endpoint.urlFor('t1') })) as { isError?: boolean };
      expect(result.isError).toBe(true);
      // The run learns of it: the error is kept for the wire target to rethrow.
      expect(endpoint.failure?.message).toBe('assertion: planted in the test');
    } finally {
      await connection.close();
      await endpoint.close();
    }
  });

  it('says so when the server cancels the call: the steps released for it are taken back, and it takes none after', async () => {
    const connection = await line.connect([]);
    const endpoint = await startControlEndpoint();
    const host = recordingHost();
    endpoint.bind('t1', host);
    const abort = new AbortController();
    try {
      const call = connection.callCancellable('work', { callId: 'c1', control: endpoint.urlFor('t1') }, abort.signal);
      call.catch(() => undefined);
      await until(() => host.starts.length === 1);
      // The tool waits at `next`; the client cancels its request, the server aborts the tool, the tool says so.
      abort.abort();
      await until(() => host.cancellations.length === 1);
      expect(host.cancellations).toEqual([7]);
      // A step released for it now is not given to it, and nothing is left waiting to be taken.
      endpoint.release(7);
      expect(endpoint.unconsumed).toBe(0);
      expect(host.steps).toBe(0);
      await expect(call).rejects.toThrow();
    } finally {
      await connection.close();
      await endpoint.close();
    }
  });

  it('returns an error result, and does not hang, when the control endpoint refuses the run', async () => {
    const connection = await line.connect([]);
    const endpoint = await startControlEndpoint();
    try {
      // No run is bound: the endpoint answers 410 Gone, and the tool stops.
      const result = (await connection.callTool('read', { callId: 'c1', control: endpoint.urlFor('t-gone') })) as { isError?: boolean };
      expect(result.isError).toBe(true);
    } finally {
      await connection.close();
      await endpoint.close();
    }
  });
});
