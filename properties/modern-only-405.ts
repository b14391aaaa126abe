// A 2026-07-28-only endpoint has no GET stream and no session to delete: GET and DELETE get 405.
import { MODERN_ONLY_BACKWARD_COMPATIBILITY } from './source.ts';
import { MODERN, type Property } from './property.ts';

export const modernOnly405: Property = {
  name: 'modern-only-405',
  statement: 'An endpoint that serves only 2026-07-28 answers GET and DELETE with 405 Method Not Allowed.',
  source: MODERN_ONLY_BACKWARD_COMPATIBILITY,
  background: 'The list that follows: "HTTP GET or DELETE to the MCP endpoint: respond with 405 Method Not Allowed." A dual-era endpoint answers them on its legacy path (not judged here).',
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  revisions: MODERN,
  onResponse(world, connection) {
    if (connection.purpose !== 'probe' || connection.status === 405) return null;
    if (world.eras.length !== 1 || world.eras[0] !== 'modern') return null;
    return `the 2026-07-28-only endpoint answered the probe on connection #${connection.index} with ${connection.status}, expected 405`;
  },
};
