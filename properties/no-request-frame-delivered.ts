// No client receives a request that only a client sends: seed 000's variant as the seed tells it, where the server
// replayed the buffered tools/call request frame and the client, taking it for a request, sent it again.
import type { JsonRpcMessage } from '../targets/target.ts';
import { ALL_REVISIONS, type Property } from './property.ts';

/** Request methods only a client sends to a server: a server that sends one back has echoed a client's request. */
const CLIENT_REQUEST_PREFIXES = ['tools/', 'resources/', 'prompts/'] as const;
const CLIENT_REQUEST_METHODS: ReadonlySet<string> = new Set(['initialize', 'completion/complete', 'logging/setLevel']);

/** True when `message` is a JSON-RPC request (method and id) of a method only clients send. */
export function isClientRequest(message: JsonRpcMessage): boolean {
  const method = message['method'];
  if (typeof method !== 'string' || !('id' in message)) return false;
  return CLIENT_REQUEST_METHODS.has(method) || CLIENT_REQUEST_PREFIXES.some((prefix) => method.startsWith(prefix));
}

export const noRequestFrameDelivered: Property = {
  name: 'no-request-frame-delivered',
  statement:
    'No client receives, on any stream, a request of a method only clients send (its own tools/call request echoed back): a client may take it for a request and send it again.',
  source: {
    kind: 'seed',
    file: '000_318af8320b77c7d3.txt',
    quote: 'the client re-sent the request after receiving what it interpreted as a *request* frame',
  },
  background:
    'Seed 000: the server "had, in a different code path, replayed the original `tools/call` *request* event as part of the buffer"; the specification names no rule against a server sending a client-only method, so this is the seed\'s advice.',
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'server',
  revisions: ALL_REVISIONS,
  onFrame(_world, connection, frame) {
    if (frame.data === null || frame.event === 'reset' || !isClientRequest(frame.data)) return null;
    return `event ${frame.eventId ?? '(no id)'} on connection ${connection.index} carries a ${String(frame.data['method'])} request (id ${JSON.stringify(frame.data['id'])}), which only a client sends: the server echoed a client's request into its stream`;
  },
};
