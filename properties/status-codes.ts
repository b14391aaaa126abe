// 404 for a terminated session's ID, as the specification says at MUST (the 400 for a request without a session header
// is a SHOULD: missing-session-id-400).
import { MODEL } from '../model/index.ts';
import { ACTION_KINDS } from '../sim/config.ts';
import { LEGACY, type Property } from './property.ts';

const live = MODEL.session.state.live;
const initialising = MODEL.session.state.initialising;
const BAD_VERSION = ACTION_KINDS.indexOf('badVersion');

export const statusCodes: Property = {
  name: 'status-codes',
  statement: "A request carrying a terminated session's ID gets 404.",
  source: {
    kind: 'spec',
    revisions: LEGACY,
    page: 'basic/transports',
    section: 'Session Management',
    quote: 'The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.',
    keyword: 'MUST',
  },
  background:
    'Two other answers are let pass, each owed to a sentence of its own that the server may apply first. 405 to a GET or a DELETE: "The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this endpoint", and "The server MAY respond to this request with HTTP 405 Method Not Allowed, indicating that the server does not allow clients to terminate sessions"; a server that refuses the method never reads the session. 400 to a request sent with an MCP-Protocol-Version no revision has (the version fault): "it MUST respond with 400 Bad Request" (unsupported-version-400, which lets a 404 pass the other way).',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: LEGACY,
  onResponse(_world, connection) {
    // A request without a session header is missing-session-id-400's to judge.
    if (connection.session === null) return null;
    const state = connection.session.state;
    if (state === live || state === initialising || connection.status === 404) return null;
    const getOrDelete = connection.purpose === 'resume' || connection.purpose === 'standalone' || connection.purpose === 'delete';
    if ((connection.status === 405 && getOrDelete) || (connection.status === 400 && connection.openedBy === BAD_VERSION)) return null;
    return `session ${connection.session.id} is ${MODEL.session.states[state]}, yet a ${connection.purpose} request carrying it got ${connection.status}, expected 404 (connection ${connection.index})`;
  },
};
