// The control endpoint's acknowledgement of results: a tool that said at start that its server acknowledges its result
// (`acknowledges`) leaves the result unhandled, and the wire target's settle waiting, until its server calls `handled`;
// a tool that did not leaves nothing to wait for (every probe tool before acknowledgements, and a server without them).

import { afterEach, describe, expect, it } from 'vitest';
import type { TargetHost } from '../target.ts';
import { type ControlEndpoint, startControlEndpoint } from './control-endpoint.ts';

/** A host whose one execution's next step is its result. */
function resultHost(): TargetHost {
  return {
    frame() {},
    end() {},
    startExecution: () => 1,
    nextStep: () => ({ kind: 'result', result: { content: [] } }),
    cancelled() {},
    random: () => 0,
  };
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

let endpoint: ControlEndpoint | null = null;
afterEach(async () => {
  await endpoint?.close();
  endpoint = null;
});

/** Starts an execution (acknowledging its result or not), releases its one step and has its tool take it: the result. */
async function resultTaken(acknowledges: boolean | undefined): Promise<{ control: ControlEndpoint; url: string; execution: number }> {
  const control = await startControlEndpoint();
  endpoint = control;
  control.bind('run1', resultHost());
  const url = control.urlFor('run1');
  const started = await post(`${url}/start`, { callId: 'c1', tool: 'read', sessionId: 's1', ...(acknowledges === undefined ? {} : { acknowledges }) });
  expect(started.status).toBe(200);
  const execution = started.json['execution'] as number;
  control.release(execution);
  const next = await post(`${url}/next`, { execution });
  expect(next.json['kind']).toBe('result');
  return { control, url, execution };
}

describe('the control endpoint: results acknowledged by their server', () => {
  it('a result handed to an acknowledging tool is unhandled until its server says `handled`', async () => {
    const { control, url, execution } = await resultTaken(true);
    expect(control.unconsumed).toBe(0);
    expect(control.unhandled).toBe(1);
    expect((await post(`${url}/handled`, { execution })).status).toBe(200);
    expect(control.unhandled).toBe(0);
    // Said twice (a retried callback): counted once.
    expect((await post(`${url}/handled`, { execution })).status).toBe(200);
    expect(control.unhandled).toBe(0);
  });

  it('a tool that did not say it is acknowledged leaves nothing to wait for', async () => {
    expect((await resultTaken(undefined)).control.unhandled).toBe(0);
    await endpoint?.close();
    expect((await resultTaken(false)).control.unhandled).toBe(0);
  });

  it("a node's crash or the run's end forgets the result its server will never acknowledge", async () => {
    const { control } = await resultTaken(true);
    control.dropPending(0);
    expect(control.unhandled).toBe(0);
    await control.close();
    const again = await resultTaken(true);
    again.control.unbind();
    expect(again.control.unhandled).toBe(0);
  });

  it('a settle that waited its bound out forgets it: the run waits for it no more', async () => {
    const { control } = await resultTaken(true);
    control.forgetUnhandled();
    expect(control.unhandled).toBe(0);
  });

  it('`acknowledges` other than a boolean is refused at start', async () => {
    const control = await startControlEndpoint();
    endpoint = control;
    control.bind('run1', resultHost());
    expect((await post(`${control.urlFor('run1')}/start`, { callId: 'c1', tool: 'read', sessionId: 's1', acknowledges: 'yes' })).status).toBe(400);
  });
});
