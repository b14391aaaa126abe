// A stream is carried by one live connection at a time: a second connection for it is refused, or the first is ended
// so its client knows. Never two live connections, never a connection left open that nothing will ever end.
import { ALL_REVISIONS, type Property } from './property.ts';

export const oneConnectionPerStream: Property = {
  name: 'one-connection-per-stream',
  statement:
    'After every step, at most one live connection carries each stream of a client: a second one is refused (409) or the first is ended so its client knows, never left open silently.',
  source: {
    kind: 'design',
    rule: 'at most one live connection carries each stream: a second one is refused (409) or the first is ended so its client knows',
    reason: 'MCP says "The server MUST send each of its JSON-RPC messages on only one of the connected streams", of messages and not of connections; the go-sdk refuses concurrent resumes "defensively" (FIELD.md); a connection left open with nothing to come is a hang',
  },
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: ALL_REVISIONS,
  onStep(world) {
    const { attached } = world;
    for (let at = 1; at < attached.length; at += 1) {
      const connection = world.connections[attached[at]!]!;
      if (connection.view < 0) continue;
      for (let before = 0; before < at; before += 1) {
        const other = world.connections[attached[before]!]!;
        if (other.view !== connection.view) continue;
        const view = world.views[connection.view]!;
        const stream = view.call === null ? 'the standalone stream' : `the stream of ${view.call.id}`;
        const current = view.connection === connection.index ? connection : other;
        const left = current === connection ? other : connection;
        return `connections #${other.index} and #${connection.index} of client ${view.client + 1} both stay open for ${stream}: #${current.index} took it over and #${left.index} was neither refused nor ended`;
      }
    }
    return null;
  },
};
