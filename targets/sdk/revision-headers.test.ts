// The revision headers every harness sends: one function decides them for the SDK harness and the wire target.

import { describe, expect, it } from 'vitest';
import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest, modernCallRequest } from '../../sim/tools.ts';
import { revisionHeadersOf } from './revision-headers.ts';

describe('revisionHeadersOf', () => {
  it('absent revision: 2025-11-25 on every request but the initialize, as the harness always sent', () => {
    expect(revisionHeadersOf({ method: 'POST', body: initializeRequest(1) })).toEqual({});
    expect(revisionHeadersOf({ method: 'POST', body: INITIALIZED_NOTIFICATION })).toEqual({ 'mcp-protocol-version': '2025-11-25' });
    expect(revisionHeadersOf({ method: 'POST', body: callRequest(2, 'read', 'c1') })).toEqual({ 'mcp-protocol-version': '2025-11-25' });
    expect(revisionHeadersOf({ method: 'GET' })).toEqual({ 'mcp-protocol-version': '2025-11-25' });
    expect(revisionHeadersOf({ method: 'DELETE' })).toEqual({ 'mcp-protocol-version': '2025-11-25' });
  });

  it('2025-03-26 sends none (the header came in 2025-06-18); 2025-06-18 sends its own', () => {
    for (const method of ['GET', 'DELETE'] as const) expect(revisionHeadersOf({ method, protocolVersion: '2025-03-26' })).toEqual({});
    expect(revisionHeadersOf({ method: 'POST', body: callRequest(2, 'read', 'c1'), protocolVersion: '2025-03-26' })).toEqual({});
    expect(revisionHeadersOf({ method: 'POST', body: callRequest(2, 'read', 'c1'), protocolVersion: '2025-06-18' })).toEqual({ 'mcp-protocol-version': '2025-06-18' });
    expect(revisionHeadersOf({ method: 'POST', body: initializeRequest(1, '2025-06-18'), protocolVersion: '2025-06-18' })).toEqual({});
  });

  it('2026-07-28: a request mirrors its method, and a tool call its tool name; GET, DELETE and notifications only the version', () => {
    expect(revisionHeadersOf({ method: 'POST', body: modernCallRequest(3, 'append', 'c1'), protocolVersion: '2026-07-28' })).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'append',
    });
    expect(revisionHeadersOf({ method: 'POST', body: { jsonrpc: '2.0', id: 4, method: 'tools/list' }, protocolVersion: '2026-07-28' })).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    });
    expect(revisionHeadersOf({ method: 'POST', body: INITIALIZED_NOTIFICATION, protocolVersion: '2026-07-28' })).toEqual({ 'mcp-protocol-version': '2026-07-28' });
    expect(revisionHeadersOf({ method: 'GET', protocolVersion: '2026-07-28' })).toEqual({ 'mcp-protocol-version': '2026-07-28' });
    // A legacy revision never gets the 2026 headers, even on an enveloped body (a proxy's mix is the sim's to make).
    expect(revisionHeadersOf({ method: 'POST', body: modernCallRequest(3, 'read', 'c1') })).toEqual({ 'mcp-protocol-version': '2025-11-25' });
  });
});
