// Status codes as the specification says: 404 for a terminated session's ID, 400 without a session header.
import { MODEL } from '../model/index.ts';
import { LEGACY, type Property } from './property.ts';

const live = MODEL.session.state.live;
const initialising = MODEL.session.state.initialising;

export const statusCodes: Property = {
  name: 'status-codes',
  statement: "A request carrying a terminated session's ID gets 404; a non-initialize request without a session ID gets 400.",
  source: 'MCP transports 2025-06-18 and 2025-11-25, session management: "MUST respond ... with HTTP 404 Not Found"; "SHOULD respond ... with HTTP 400 Bad Request".',
  kind: 'safety',
  severity: 'failure',
  revisions: LEGACY,
  onResponse(_world, connection) {
    if (connection.session === null) {
      if (connection.purpose === 'initialize' || connection.status === 400) return null;
      return `a ${connection.purpose} request without Mcp-Session-Id got ${connection.status}, expected 400 (connection ${connection.index})`;
    }
    const state = connection.session.state;
    if (state === live || state === initialising || connection.status === 404) return null;
    return `session ${connection.session.id} is ${MODEL.session.states[state]}, yet a ${connection.purpose} request carrying it got ${connection.status}, expected 404 (connection ${connection.index})`;
  },
};
