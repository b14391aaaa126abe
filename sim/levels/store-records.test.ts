// The store level's vocabulary makes the lines its notes printed before steps were records, including the records no
// recorded run of the comparison reached (a lookup that rejects, a foreign cursor that is the session's own ID).

import { describe, expect, it } from 'vitest';
import { STORE_VOCABULARY } from './store-records.ts';

describe('the store vocabulary', () => {
  const line = STORE_VOCABULARY.text;

  it('names a storeEvent call by its stream and position, and a response as such', () => {
    const call = { session: 'A', stream: 'A.post1', event: 'A.post1#1', response: true };
    expect(line({ kind: 'storeStarted', ...call, streamId: '"x"' })).toBe('  storeEvent("x", A.post1#1 (response)) started');
    expect(line({ kind: 'storeRejected', ...call, response: false, error: 'full' })).toBe('  storeEvent of A.post1#1 rejected: full');
    expect(line({ kind: 'awaitStore', ...call })).toBe('await storeEvent of A.post1#1 (response)');
  });

  it('reads a rejected lookup and a cursor that is the session\'s own ID as the level noted them', () => {
    expect(line({ kind: 'lookupRejected', replay: 2, session: 'B', error: 'gone' })).toBe('  getStreamIdForEventId rejected: gone');
    expect(line({ kind: 'cursorOwn', replay: 2, session: 'B', stream: 'B.standalone', event: 'B.standalone#0', response: false })).toBe("  the cursor is also session B's own ID of B.standalone#0: judged as its own cursor");
    expect(line({ kind: 'refused', replay: 2, session: 'B', status: 500 })).toBe('  refused by getStreamIdForEventId (the transport answers 500)');
  });

  it('reads the actions that name sessions by label', () => {
    expect(line({ kind: 'reuseSessionId', sessionReused: 'A' })).toBe('a new session opens with the ID of session A, which an earlier incarnation issued');
    expect(line({ kind: 'replayForeign', session: 'B', other: 'A' })).toBe("session B resumes with session A's latest cursor (a proxy mixes sessions up)");
  });
});
