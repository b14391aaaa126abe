// 404 for a terminated session's ID, as the specification says at MUST (the 400 for a request without a session header
// is a SHOULD: missing-session-id-400).
import { MODEL } from '../model/index.ts';
import { LEGACY, type Property } from './property.ts';

const live = MODEL.session.state.live;
const initialising = MODEL.session.state.initialising;

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
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: LEGACY,
  onResponse(_world, connection) {
    // A request without a session header is missing-session-id-400's to judge.
    if (connection.session === null) return null;
    const state = connection.session.state;
    if (state === live || state === initialising || connection.status === 404) return null;
    return `session ${connection.session.id} is ${MODEL.session.states[state]}, yet a ${connection.purpose} request carrying it got ${connection.status}, expected 404 (connection ${connection.index})`;
  },
};
