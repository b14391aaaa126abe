// A result the server holds and never wrote toward the client is delivered when the client resumes, not withheld.
import { MODEL } from '../model/index.ts';
import { LEGACY, type Property } from './property.ts';

const completed = MODEL.stream.state.completed;

export const noWithheldResult: Property = {
  name: 'no-withheld-result',
  statement:
    'A resume of a completed stream whose result the server never wrote toward the client (not delivered, not lost on the way) does not end with a reset in place of the result (a reset for a window gap excepted).',
  source:
    'MCP transports: "Disconnection SHOULD NOT be interpreted as the client cancelling its request"; DESIGN: a cursor before the terminal event "means the client missed its result" (withholding it is seed 000\'s rule read literally).',
  kind: 'safety',
  severity: 'warning',
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
