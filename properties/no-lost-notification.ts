// Liveness: once faults stop and a client has resumed its standalone stream, what the server sends there arrives.
import { MODEL } from '../model/index.ts';
import { LEGACY, type Property } from './property.ts';

const live = MODEL.session.state.live;

export const noLostNotification: Property = {
  name: 'no-lost-notification',
  statement:
    'Once faults stop and each client has resumed its standalone stream with its latest cursor, a notification the server then sends to its session reaches it.',
  source: {
    kind: 'design',
    rule: 'once faults stop and a client has resumed its standalone stream with its latest cursor, a notification the server then sends its session reaches it',
    reason: 'the standalone GET stream is where a server sends its session\'s notifications ("The server MAY send JSON-RPC requests and notifications on the stream"); a resumed stream that drops new ones loses them without anyone knowing',
  },
  kind: 'liveness',
  severity: 'advice',
  underClientFault: 'server',
  revisions: LEGACY,
  onFinish(world) {
    for (const client of world.clients) {
      const session = client.session;
      if (session === null || !session.notifiedInLiveness || session.state !== live || client.standaloneView < 0) continue;
      const view = world.views[client.standaloneView]!;
      if (view.session !== session || view.outcome !== 'pending' || view.kLast >= session.notifications) continue;
      const where = view.connection >= 0 ? `its open standalone connection #${view.connection}` : 'its standalone stream, to which the server kept no connection';
      return `the server sent notification #${session.notifications} to session ${session.id} after the faults stopped, and client ${client.index + 1} never received it on ${where}`;
    }
    return null;
  },
};
