// 400 for a request whose MCP-Protocol-Version no revision has: a MUST of 2025-06-18 and 2025-11-25, judged on the
// standalone GETs and DELETEs the version fault (config versionFaults, sim/actions.ts's badVersion) sends with such a header.
import { MODEL } from '../model/index.ts';
import { ACTION_KINDS, UNSUPPORTED_VERSION } from '../sim/config.ts';
import type { Property } from './property.ts';

const BAD_VERSION = ACTION_KINDS.indexOf('badVersion');
const live = MODEL.session.state.live;

export const unsupportedVersion400: Property = {
  name: 'unsupported-version-400',
  statement: 'A request with an invalid or unsupported MCP-Protocol-Version gets 400 Bad Request.',
  source: {
    kind: 'spec',
    revisions: ['2025-06-18', '2025-11-25'],
    page: 'basic/transports',
    section: 'Protocol Version Header',
    quote: 'If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request.',
    keyword: 'MUST',
  },
  background: `Judged on a standalone GET or a DELETE of a live session carrying MCP-Protocol-Version ${UNSUPPORTED_VERSION} (config versionFaults: on over the wire, \`fuzz --version-faults\` in process). A 404 is let pass where the server may rightly not know the session: it is no longer live, or a deployment of several nodes answered; a 405 too, from a server that serves no GET stream or lets no client end its session (the revisions let it answer every such request so, and it may refuse the method before it reads a header). The 2025-03-26 revision has no such header; 2026-07-28 words its refusal otherwise.`,
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  onlyWith: 'versionFaults',
  revisions: ['2025-06-18', '2025-11-25'],
  onResponse(world, connection) {
    if (connection.openedBy !== BAD_VERSION || connection.status === 400) return null;
    const unknownSession = connection.session === null || connection.session.state !== live || world.server.crashNode !== undefined;
    if ((connection.status === 404 && unknownSession) || connection.status === 405) return null;
    const request = connection.purpose === 'delete' ? 'DELETE' : 'standalone GET';
    return `the ${request} with MCP-Protocol-Version ${UNSUPPORTED_VERSION} (connection ${connection.index}) got ${connection.status}, expected 400`;
  },
};
