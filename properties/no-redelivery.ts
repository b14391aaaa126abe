// Nothing at or before the presented cursor is delivered again after a resume.
import { LEGACY, type Property, describeMessage, isPositioned } from './property.ts';

export const noRedelivery: Property = {
  name: 'no-redelivery',
  statement: 'After a resume, nothing at or before the presented cursor is delivered again.',
  source: 'Seed 000: "replays buffered events strictly after that ID"; DESIGN: "replay strictly after the cursor".',
  kind: 'safety',
  severity: 'advice',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const cursor = arrival.connection.cursor;
    if (cursor === null || !isPositioned(world, arrival) || arrival.provenance.k > cursor.k) return null;
    return `${describeMessage(arrival)} was delivered again on connection ${arrival.connection.index}, resumed after ${cursor.eventId} which already covered position ${cursor.k}`;
  },
};
