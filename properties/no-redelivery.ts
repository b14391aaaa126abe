// Nothing at or before the presented cursor is delivered again after a resume.
import { LEGACY, type Property, describeMessage, isPositioned } from './property.ts';

export const noRedelivery: Property = {
  name: 'no-redelivery',
  statement: 'After a resume, nothing at or before the presented cursor is delivered again.',
  source: {
    kind: 'seed',
    file: '000_318af8320b77c7d3.txt',
    quote: 'the server replays buffered events strictly after that ID',
  },
  background: 'MCP lets the server replay (MAY) messages "that would have been sent after the last event ID".',
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const cursor = arrival.connection.cursor;
    if (cursor === null || !isPositioned(world, arrival) || arrival.provenance.k > cursor.k) return null;
    return `${describeMessage(arrival)} was delivered again on connection ${arrival.connection.index}, resumed after ${cursor.eventId} which already covered position ${cursor.k}`;
  },
};
