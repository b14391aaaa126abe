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
  source: {
    kind: 'spec',
    revisions: ['2025-06-18', '2025-11-25'],
    page: 'basic/index',
    section: 'Messages',
    quote: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.',
    keyword: 'MUST',
  },
  background: '2025-11-25 basic/transports: a priming event is "an SSE event consisting of an event ID and an empty data field".',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: ALL_REVISIONS,
  onFrame(_world, connection, frame) {
    if (frame.data === null || frame.event === 'reset' || isJsonRpcMessage(frame.data)) return null;
    return `event ${frame.eventId ?? '(no id)'} on connection ${connection.index} carries ${JSON.stringify(frame.data).slice(0, 80)}, which is no JSON-RPC message`;
  },
};
