// A result the server holds and never wrote toward the client is delivered when the client resumes, not withheld.
import { MODEL } from '../model/index.ts';
import { LEGACY, type Property } from './property.ts';

const completed = MODEL.stream.state.completed;

export const noWithheldResult: Property = {
  name: 'no-withheld-result',
  statement:
    'A resume of a completed stream whose result the server never wrote toward the client (not delivered, not lost on the way) does not end with a reset in place of the result (a reset for a window gap excepted).',
  source: {
    kind: 'design',
    rule: 'a resume of a completed stream whose result the server never wrote toward the client does not end with a reset in place of the result',
    reason: 'the reference\'s completed-stream policy (replay-unsent) chose it; the seeds recommend the opposite (000: a cursor into a completed stream is answered "with a fresh stream and a 200 that begins a new event sequence — not a replay"; 004: start fresh with an explicit reset), so it is advice the project chose, not a rule',
  },
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: LEGACY,
  onEnd(world, connection) {
    if (!connection.resetSeen || connection.view < 0) return null;
    const view = world.views[connection.view]!;
    if (view.call === null || view.connection !== connection.index || view.outcome === 'result' || view.stream !== completed || view.resultWritten) return null;
    // Seed 004's explicit case: past the retained window the server starts afresh and signals the gap.
    if (connection.resetReason === 'gap') return null;
    return `the server ended connection #${connection.index} with a reset (${String(connection.resetReason)}) in place of ${view.call.id}'s result, which it holds and never wrote toward the client`;
  },
};
