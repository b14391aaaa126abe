// A stateless server's clients (an initialize answered without Mcp-Session-Id) are in unnamed sessions, the simulator's
// names for them: no-cross-session-delivery does not judge a message reaching one, since the server has no sessions
// (a resume with another client's cursor is a resume of that cursor's stream), nor no-cross-epoch-replay one from a
// later incarnation (a restart does not end it); no-cross-stream-replay still judges what reaches which stream. A named
// session of a server that keeps its sessions over restarts is judged by no-cross-epoch-replay from its own epoch on.

import { describe, expect, it } from 'vitest';
import { statelessSession, unnamedSessionId, sessionHeaderOf, type Arrival, type SimSession, type World } from '../sim/world.ts';
import { noCrossEpochReplay } from './no-cross-epoch-replay.ts';
import { noCrossSessionDelivery } from './no-cross-session-delivery.ts';

function session(id: string, unnamed: boolean): SimSession {
  return { ...statelessSession(0, 1), index: 0, id, unnamed };
}

function arrival(at: SimSession, from: string, epoch = 1): Arrival {
  const connection = { index: 5, session: at } as unknown as Arrival['connection'];
  return { connection, provenance: { epoch, sessionId: from, callId: 'c1', k: 1, execution: 1, result: true }, message: { jsonrpc: '2.0', id: 2, result: {} }, eventId: null };
}

describe('unnamed sessions', () => {
  it('send no Mcp-Session-Id; a named session sends its ID', () => {
    expect(unnamedSessionId(3)).toBe('(unnamed 3)');
    expect(sessionHeaderOf(unnamedSessionId(3))).toBeNull();
    expect(sessionHeaderOf('abc-123')).toBe('abc-123');
    expect(sessionHeaderOf(null)).toBeNull();
  });

  it('are not judged by no-cross-session-delivery; named sessions are', () => {
    const world = {} as World;
    expect(noCrossSessionDelivery.onArrival!(world, arrival(session(unnamedSessionId(2), true), unnamedSessionId(1)))).toBeNull();
    expect(noCrossSessionDelivery.onArrival!(world, arrival(session('s2', false), 's1'))).toMatch(/was delivered to session s2 on connection 5/);
  });

  it('outlive restarts: a later incarnation\'s message to one is no cross-epoch replay; to a named session of epoch 1 it is', () => {
    const world = { run: {} } as World;
    expect(noCrossEpochReplay.onArrival!(world, arrival(session(unnamedSessionId(1), true), unnamedSessionId(1), 2))).toBeNull();
    expect(noCrossEpochReplay.onArrival!(world, arrival(session('s1', false), 's1', 2))).toMatch(/was delivered to session s1 of epoch 1 on connection 5/);
  });
});

describe('named sessions of a server whose sessions outlive restarts (TargetRun.sessionsOutliveRestart)', () => {
  it("take a later incarnation's message as their own, and not one from before they began", () => {
    const world = { run: { sessionsOutliveRestart: true } } as unknown as World;
    expect(noCrossEpochReplay.onArrival!(world, arrival(session('s1', false), 's1', 2))).toBeNull();
    const later = { ...session('s2', false), epoch: 2 };
    expect(noCrossEpochReplay.onArrival!(world, arrival(later, 's2', 1))).toMatch(/was delivered to session s2 of epoch 2 on connection 5/);
  });
});
