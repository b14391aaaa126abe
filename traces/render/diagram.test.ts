// The one reader of the engines' printed notes: each kind of line becomes the arrow or note it stands for, between
// the right participants; a line it does not know is kept as a note, so a new kind of step still renders.

import { describe, expect, it } from 'vitest';
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

const faults = (action: string, notes: string[]): ReadableStep => ({ action, phase: 'faults', notes });

describe('the simulator notes, read back', () => {
  const diagram = buildDiagram(
    simulation(
      [
        faults('client 2 initializes', ['POST #0 initialize (request 1)', '  → 200 SSE Mcp-Session-Id: s2', 'POST #1 notifications/initialized', '  → 202']),
        faults('client 2 calls work', ['POST #2 tools/call work as c1 (request 2)', '  ⚙ work c1 starts executing (execution 1, session s2)', '  → 200 SSE', '  ← #2 id e1 priming event']),
        faults('the network cuts connection #2 (client 2)', []),
        faults('the server advances c1 (work, execution 1)', []),
        faults("client 1 resumes with client 2's cursor (a proxy mixes sessions up)", ['GET #3 Last-Event-ID: e1', '  → 200 SSE', '  ← #3 id e2 progress #1 of c1 [epoch 1, session s2]', '  ← #3 end of stream', 'something new the engine prints']),
        faults('the server restarts (epoch 2)', []),
        { action: 'the server advances c1 (work, execution 1)', phase: 'liveness', notes: [] },
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

  it('keeps a line it does not know as a note, as it was printed', () => {
    expect(resume!.items[4]).toMatchObject({ kind: 'note', style: 'info', text: 'something new the engine prints' });
  });

  it('marks a restart over the server, the liveness phase where it begins, and the violation after its step', () => {
    expect(restart!.items[0]).toMatchObject({ kind: 'note', over: ['SRV'], style: 'fault' });
    expect(liveness!.items[0]).toMatchObject({ kind: 'note', style: 'phase' });
    expect(diagram.violation).toMatchObject({ after: 4, text: '✗ no-cross-session-delivery: leaked to session s2' });
  });
});

describe('the store-contract notes, read back', () => {
  const diagram = buildDiagram({
    ...simulation([]),
    kind: 'store-contract',
    steps: [
      { action: 'a new session opens (incarnation 1)', phase: null, notes: ['factory(null, epoch 1) → the store', 'session A = s1 (the shared store)'] },
      { action: 'session A opens a request stream', phase: null, notes: ['storeEvent("x", A.post1#0) started', 'storeEvent of A.post1#0 resolved: "x_1"'] },
      { action: 'session B resumes', phase: null, notes: ['replay #1 of session B, Last-Event-ID "x_1"', 'replay #1 sends "x_2" {}', 'replay #1 returned "x" after 1 sends'] },
    ],
  });

  it('has each session and the store as participants', () => {
    expect(diagram.participants.map((participant) => participant.id)).toEqual(['SA', 'SB', 'STORE']);
  });

  it('draws store calls, their settling, and a replay\'s sends to the session that asked', () => {
    expect(diagram.steps[1]!.items.map((item) => item.kind === 'message' && `${item.from}>${item.to} ${item.style}`)).toEqual(['SA>STORE request', 'STORE>SA response']);
    expect(diagram.steps[2]!.items.map((item) => item.kind === 'message' && `${item.from}>${item.to} ${item.style}`)).toEqual(['SB>STORE request', 'STORE>SB event', 'STORE>SB end']);
  });
});

describe('escaping', () => {
  it('writes what Mermaid reads as syntax as its numeric entities', () => {
    expect(escapeMermaid('a; b # c: d %% e <br> "f" {g}')).toBe('a#59; b #35; c#58; d #37;#37; e #60;br#62; #34;f#34; #123;g#125;');
  });

  it('keeps trace text out of the page as markup and out of the diagram as statements', () => {
    const trace = simulation([faults('client 1 calls read', ['POST #0 <script>alert(1)</script>; end', '<img src=x onerror=alert(1)>'])], 0);
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
