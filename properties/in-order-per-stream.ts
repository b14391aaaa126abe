// Each connection delivers its stream's messages in emission order, each once.
import { LEGACY, type Property, describeMessage, isPositioned } from './property.ts';

export const inOrderPerStream: Property = {
  name: 'in-order-per-stream',
  statement: 'On each connection, the messages of its stream arrive in emission order, none twice.',
  source: {
    kind: 'seed',
    file: '000_318af8320b77c7d3.txt',
    quote: 'producing duplicate or out-of-order tool results',
  },
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const { connection } = arrival;
    if (!isPositioned(world, arrival) || arrival.provenance.k > connection.kLast) return null;
    return `${describeMessage(arrival)} arrived on connection ${connection.index} after position ${connection.kLast} of the same stream`;
  },
};
