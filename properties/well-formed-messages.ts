// Every event a client receives carries a JSON-RPC message, or no data at all (a priming event).
import type { JsonRpcMessage } from '../targets/target.ts';
import { ALL_REVISIONS, type Property } from './property.ts';

function isJsonRpcMessage(data: JsonRpcMessage): boolean {
  if (data['jsonrpc'] !== '2.0') return false;
  if (typeof data['method'] === 'string') return true;
  return 'id' in data && ('result' in data || 'error' in data);
}

export const wellFormedMessages: Property = {
  name: 'well-formed-messages',
  statement: 'Every SSE event a client receives is a JSON-RPC message, or has no data at all (a priming event); a reset is the one other event.',
  source: 'MCP transports: the server sends JSON-RPC messages as SSE events; 2025-11-25: a priming event is an event ID with empty data.',
  kind: 'safety',
  severity: 'failure',
  revisions: ALL_REVISIONS,
  onFrame(_world, connection, frame) {
    if (frame.data === null || frame.event === 'reset' || isJsonRpcMessage(frame.data)) return null;
    return `event ${frame.eventId ?? '(no id)'} on connection ${connection.index} carries ${JSON.stringify(frame.data).slice(0, 80)}, which is no JSON-RPC message`;
  },
};
