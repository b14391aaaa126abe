// Missed events are replayed or signalled: a client is never skipped past events silently.
import { MODEL } from '../model/index.ts';
import { isSettled } from '../sim/world.ts';
import { LEGACY, type Property, describeMessage, isPositioned } from './property.ts';

const completed = MODEL.stream.state.completed;
const live = MODEL.session.state.live;

export const noSilentGap: Property = {
  name: 'no-silent-gap',
  statement: 'A client is never skipped past events of its stream, nor left without its result, unless the server signals the loss.',
  source: {
    kind: 'seed',
    file: '004_98a48cad619d3588.txt',
    quote: 'start fresh and signal a gap, because the client has missed events it cannot reconstruct',
  },
  background: 'Seed 004: "Silent replay is never correct."',
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const { connection } = arrival;
    if (connection.kExpected === null || connection.resetSeen || !isPositioned(world, arrival)) return null;
    if (arrival.provenance.k <= connection.kExpected) return null;
    return `${describeMessage(arrival)} arrived on connection ${connection.index} where position ${connection.kExpected} was due, with no reset: positions ${connection.kExpected}..${arrival.provenance.k - 1} were skipped silently`;
  },
  onEnd(world, connection) {
    if (connection.view < 0 || connection.resetSeen) return null;
    const view = world.views[connection.view]!;
    if (view.call === null || view.connection !== connection.index || isSettled(view.outcome) || view.stream !== completed) return null;
    // An ended session is signalled by the 404 the client gets next; that is not a silent loss.
    if (view.session.state !== live) return null;
    return `the server ended connection ${connection.index} of ${view.call.id} without its result and without a reset, though the result exists`;
  },
};
