// Records become the arrows and notes they stand for, between the right participants, by their fields; a record of a
// kind the chart does not know, and a trace's text record from before steps were records, is kept as a note.

import { describe, expect, it } from 'vitest';
import { type StepRecord, textRecord } from '../../sim/levels/records.ts';
import { CLIENT_VOCABULARY } from '../../sim/levels/client-records.ts';
import { SERVER_VOCABULARY } from '../../sim/levels/server-records.ts';
import { STORE_VOCABULARY } from '../../sim/levels/store-records.ts';
import { buildDiagram } from './diagram.ts';
import { escapeMermaid, renderMermaid } from './mermaid.ts';
import { renderHtml } from './html.ts';
import type { ReadableStep, ReadableTrace } from './readable.ts';

function simulation(steps: ReadableStep[], verdictStep: number | null = null): ReadableTrace {
  return {
    kind: 'simulation',
    target: 'test',
    seed: 's',
    clients: 2,
    steps,
    verdict: verdictStep === null ? null : { property: 'no-cross-session-delivery', kind: 'safety', statement: 'must', source: 'seed 004', explanation: 'leaked to session s2', step: verdictStep },
    replay: 'npx resumecheck replay t.json',
    shrink: null,
  };
}

/** A step of records, with the lines the server level's vocabulary gives them (as readable.ts reads a trace). */
function recorded(phase: 'faults' | 'liveness', action: StepRecord, observations: StepRecord[]): ReadableStep {
  return { action: SERVER_VOCABULARY.text(action), phase, notes: observations.map((record) => (record.kind === 'text' ? String(record['text']) : SERVER_VOCABULARY.text(record))), actionRecord: action, observations };
}
const faults = (action: StepRecord, observations: StepRecord[]) => recorded('faults', action, observations);
/** A step as a version-1 trace kept it: printed lines only. */
const printed = (action: string, notes: string[]): ReadableStep => ({ action, phase: 'faults', notes, actionRecord: textRecord(action), observations: notes.map(textRecord) });

describe('the simulator records, laid out', () => {
  const request = (connection: number, client: number, fields: Record<string, string | number | null>): StepRecord => ({ kind: 'request', method: 'POST', connection, client, ...fields });
  const diagram = buildDiagram(
    simulation(
      [
        faults({ kind: 'initialize', client: 2 }, [
          request(0, 2, { form: 'initialize', requestId: 1 }),
          { kind: 'response', connection: 0, client: 2, status: 200, sse: true, session: 's2' },
          request(1, 2, { form: 'initialized', session: 's2' }),
          { kind: 'response', connection: 1, client: 2, status: 202, sse: false },
        ]),
        faults({ kind: 'call', client: 2, tool: 'work' }, [
          request(2, 2, { form: 'call', session: 's2', call: 'c1', tool: 'work', requestId: 2 }),
          { kind: 'execution', tool: 'work', call: 'c1', execution: 1, session: 's2' },
          { kind: 'response', connection: 2, client: 2, status: 200, sse: true },
          { kind: 'frame', connection: 2, client: 2, eventId: 'e1', message: 'priming' },
        ]),
        faults({ kind: 'cut', connection: 2, client: 2 }, []),
        faults({ kind: 'advance', call: 'c1', tool: 'work', execution: 1 }, []),
        faults({ kind: 'resumeForeign', client: 1, other: 2 }, [
          { kind: 'request', form: 'resume', method: 'GET', connection: 3, client: 1, session: 's1', lastEventId: 'e1' },
          { kind: 'response', connection: 3, client: 1, status: 200, sse: true },
          { kind: 'frame', connection: 3, client: 1, eventId: 'e2', message: 'progress', k: 1, call: 'c1', epoch: 1, session: 's2' },
          { kind: 'end', connection: 3, client: 1, closing: false },
          { kind: 'somethingNew', connection: 3 },
          textRecord('a line kept from a version-1 trace'),
        ]),
        faults({ kind: 'restart', epoch: 2 }, []),
        recorded('liveness', { kind: 'advance', call: 'c1', tool: 'work', execution: 1 }, []),
      ],
      4,
    ),
  );
  const [init, call, cut, advance, resume, restart, liveness] = diagram.steps;

  it('has each client, the network or proxy, and the server as participants', () => {
    expect(diagram.participants.map((participant) => participant.id)).toEqual(['C1', 'C2', 'NET', 'SRV']);
  });

  it('draws a request from its client to the server and the response back, learning the session it mints', () => {
    expect(init!.items[0]).toMatchObject({ kind: 'message', from: 'C2', to: 'SRV', style: 'request', text: 'POST #0 initialize (request 1)' });
    expect(init!.items[1]).toMatchObject({ kind: 'message', from: 'SRV', to: 'C2', style: 'response', text: '#0 200 SSE Mcp-Session-Id: s2' });
    expect(call!.items[0]!.tags).toEqual(expect.arrayContaining(['connection:2', 'client:2', 'session:s2', 'call:c1']));
  });

  it('draws an execution as a note over the server and an event to the connection\'s client', () => {
    expect(call!.items[1]).toMatchObject({ kind: 'note', over: ['SRV'], style: 'server' });
    expect(call!.items[3]).toMatchObject({ kind: 'message', from: 'SRV', to: 'C2', style: 'event', text: '#2 id e1 priming event' });
  });

  it('shows a cut as a fault between the client and the network, and a message that reached no one', () => {
    expect(cut!.items).toEqual([expect.objectContaining({ kind: 'note', over: ['C2', 'NET'], style: 'fault' })]);
    expect(advance!.items).toEqual([expect.objectContaining({ kind: 'note', over: ['SRV'], style: 'fault', text: expect.stringContaining('reaches no client') })]);
  });

  it("sends a proxy's request from the network lane, and delivers to the client whose connection it is", () => {
    expect(resume!.items[0]).toMatchObject({ from: 'NET', to: 'SRV', style: 'request' });
    expect(resume!.items[2]).toMatchObject({ from: 'SRV', to: 'C1', style: 'event' });
    expect(resume!.items[2]!.tags).toEqual(expect.arrayContaining(['connection:3', 'client:1', 'session:s2', 'call:c1']));
    expect(resume!.items[3]).toMatchObject({ style: 'end' });
  });

  it('keeps a record of a kind it does not know, and a text record, as notes with their lines', () => {
    expect(resume!.items[4]).toMatchObject({ kind: 'note', over: ['NET'], style: 'info', tags: ['connection:3', 'client:1', 'session:s1'] });
    expect(resume!.items[5]).toMatchObject({ kind: 'note', over: ['NET'], style: 'info', text: 'a line kept from a version-1 trace', tags: [] });
  });

  it('draws a version-1 trace, whose steps are printed lines, as notes: it reads no English back', () => {
    const old = buildDiagram(simulation([printed('client 1 calls read', ['POST #0 tools/call read as c1 (request 2)', '  → 200 SSE'])]));
    expect(old.steps[0]!.items.map((item) => `${item.kind} ${item.style}`)).toEqual(['note info', 'note info']);
    expect(old.steps[0]!.tags).toEqual([]);
  });

  it('marks a restart over the server, the liveness phase where it begins, and the violation after its step', () => {
    expect(restart!.items[0]).toMatchObject({ kind: 'note', over: ['SRV'], style: 'fault' });
    expect(liveness!.items[0]).toMatchObject({ kind: 'note', style: 'phase' });
    expect(diagram.violation).toMatchObject({ after: 4, text: '✗ no-cross-session-delivery: leaked to session s2' });
    // The violation involves what its step involved (its explanation is prose, never read back).
    expect(diagram.violation!.tags).toEqual(resume!.tags);
  });
});

describe('the client level\'s records, laid out as the server level\'s', () => {
  /** A step of client-level records, with the lines its vocabulary gives them. */
  const client = (action: StepRecord, observations: StepRecord[]): ReadableStep => ({ action: CLIENT_VOCABULARY.text(action), phase: 'faults', notes: observations.map((record) => CLIENT_VOCABULARY.text(record)), actionRecord: action, observations });
  const diagram = buildDiagram({
    ...simulation([
      client({ kind: 'call', client: 1, tool: 'work', call: 'c1' }, [{ kind: 'request', method: 'POST', connection: 3, client: 1, bodyMethod: 'tools/call', lastEventId: null, session: 's1' }]),
      client({ kind: 'respond', method: 'POST', connection: 3, client: 1, bodyMethod: 'tools/call', lastEventId: null, session: 's1' }, [
        { kind: 'execution', tool: 'work', call: 'c1', execution: 1, session: 's1' },
        { kind: 'response', connection: 3, client: 1, status: 200, sse: true },
      ]),
      client({ kind: 'advance', call: 'c1', tool: 'work', execution: 1 }, []),
      client({ kind: 'cut', connection: 3, client: 1, beforeResponse: false }, [{ kind: 'framesLost', connection: 3, client: 1, frames: 2 }, { kind: 'settled', client: 1, call: 'c1', outcome: 'error', error: 'fetch failed' }]),
    ]),
    clients: 1,
    level: 'client',
  });
  const [call, respond, advance, cut] = diagram.steps;

  it('reads its lines from the client vocabulary', () => {
    expect(call!.action).toBe('client 1 calls work (c1)');
    expect(respond!.action).toBe('the network delivers the response to #3 (POST tools/call session s1)');
  });

  it('draws its requests, responses and executions as the server level\'s, by their fields', () => {
    expect(call!.items[0]).toMatchObject({ kind: 'message', from: 'C1', to: 'SRV', style: 'request', text: 'POST #3 tools/call session s1' });
    expect(call!.items[0]!.tags).toEqual(expect.arrayContaining(['connection:3', 'client:1', 'session:s1']));
    expect(respond!.items.map((item) => `${item.kind} ${item.style}`)).toEqual(['note server', 'message response']);
  });

  it('does not call an advance lost: at the client level the network holds what the server writes', () => {
    expect(advance!.items).toEqual([]);
  });

  it('shows frames a cut lost as a fault, and how the call settled over its client', () => {
    expect(cut!.items.map((item) => item.kind === 'note' && `${item.over.join(',')} ${item.style}`)).toEqual(['C1,NET fault', 'C1,NET fault', 'C1 info']);
    expect(cut!.tags).toEqual(expect.arrayContaining(['call:c1', 'connection:3']));
  });
});

describe('the store level\'s records, laid out by their fields', () => {
  /** A step of store-level records, with the lines its vocabulary gives them. */
  const store = (action: StepRecord, observations: StepRecord[]): ReadableStep => ({ action: STORE_VOCABULARY.text(action), phase: null, notes: observations.map((record) => STORE_VOCABULARY.text(record)), actionRecord: action, observations });
  const event = (session: string, stream: string, position: number) => ({ session, stream: `${session}.${stream}`, event: `${session}.${stream}#${position}`, response: false });
  const diagram = buildDiagram({
    ...simulation([]),
    kind: 'store-contract',
    clients: 0,
    level: 'store',
    steps: [
      store({ kind: 'openSession', epoch: 1 }, [{ kind: 'factory', epoch: 1 }, { kind: 'sessionOpened', session: 'A', sessionId: 's1', shared: true }]),
      store({ kind: 'store', session: 'A', stream: 'A.standalone' }, [
        { kind: 'storeStarted', ...event('A', 'standalone', 0), streamId: '"_GET_stream"' },
        { kind: 'storeResolved', ...event('A', 'standalone', 0), value: '"x_1"' },
      ]),
      store({ kind: 'replayForeign', session: 'B', other: 'A' }, [
        { kind: 'replayStarted', replay: 1, session: 'B', cursor: '"x_1"' },
        { kind: 'lookupResolved', replay: 1, session: 'B', value: '"_GET_stream"' },
        { kind: 'send', replay: 1, session: 'B', eventId: '"x_2"', message: '{}', origin: null },
        { kind: 'replayReturned', replay: 1, session: 'B', value: '"x"', sends: 1 },
        { kind: 'somethingNew', session: 'B' },
      ]),
      store({ kind: 'restart', epoch: 2 }, [{ kind: 'timeout', timeoutMs: 3000 }]),
    ],
  });
  const [open, stored, replayed, restarted] = diagram.steps;

  it('has each session the records name and the store as participants', () => {
    expect(diagram.participants.map((participant) => participant.id)).toEqual(['SA', 'SB', 'STORE']);
  });

  it('reads its lines from the store vocabulary', () => {
    expect(stored!.action).toBe('storeEvent of a notification on A.standalone');
    expect(replayed!.action).toBe("session B resumes with session A's latest cursor (a proxy mixes sessions up)");
    expect(open!.items.map((item) => item.text)).toEqual(['factory(null, epoch 1) → the store every session of incarnation 1 shares', 'session A = s1 (the shared store)']);
  });

  it('draws store calls from the session\'s lane, their settling back, tagged by session and stream', () => {
    expect(stored!.items.map((item) => item.kind === 'message' && `${item.from}>${item.to} ${item.style}`)).toEqual(['SA>STORE request', 'STORE>SA response']);
    expect(stored!.items[0]!.text).toBe('storeEvent("_GET_stream", A.standalone#0) started');
    expect(stored!.tags).toEqual(expect.arrayContaining(['session:A', 'stream:A.standalone']));
  });

  it("draws a replay's lookup, sends and return to the session that asked, and keeps a kind it does not know as a note", () => {
    expect(replayed!.items.map((item) => (item.kind === 'message' ? `${item.from}>${item.to} ${item.style}` : `note ${item.over.join(',')}`))).toEqual(['SB>STORE request', 'STORE>SB response', 'STORE>SB event', 'STORE>SB end', 'note SB']);
    expect(replayed!.tags).toEqual(expect.arrayContaining(['session:B', 'replay:1']));
  });

  it('marks a restart and a call timeout over the store', () => {
    expect(restarted!.items.map((item) => item.kind === 'note' && `${item.over.join(',')} ${item.style}`)).toEqual(['STORE fault', 'STORE fault']);
  });

  it('draws an old trace, whose steps are printed lines, as notes over the store: it reads no English back', () => {
    const old = buildDiagram({
      ...simulation([]),
      kind: 'store-contract',
      steps: [{ ...printed('session A opens a request stream', ['storeEvent("x", A.post1#0) started', 'storeEvent of A.post1#0 resolved: "x_1"']), phase: null }],
    });
    expect(old.participants.map((participant) => participant.id)).toEqual(['STORE']);
    expect(old.steps[0]!.items.map((item) => item.kind === 'note' && `${item.over.join(',')} ${item.style}`)).toEqual(['STORE info', 'STORE info']);
    expect(old.steps[0]!.tags).toEqual([]);
  });
});

describe('escaping', () => {
  it('writes what Mermaid reads as syntax as its numeric entities', () => {
    expect(escapeMermaid('a; b # c: d %% e <br> "f" {g}')).toBe('a#59; b #35; c#58; d #37;#37; e #60;br#62; #34;f#34; #123;g#125;');
  });

  it('keeps trace text out of the page as markup and out of the diagram as statements', () => {
    const trace = simulation([printed('client 1 calls read', ['POST #0 <script>alert(1)</script>; end', '<img src=x onerror=alert(1)>'])], 0);
    const html = renderHtml(trace);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    const mermaid = renderMermaid(trace);
    expect(mermaid).not.toContain('<script>');
    expect(mermaid).toContain('#60;script#62;alert(1)#60;/script#62;#59; end');
    for (const line of mermaid.split('\n')) expect(line.slice(line.indexOf(': ') + 1).replace(/#\w+;/g, '')).not.toMatch(/[;<>#]/);
  });
});
