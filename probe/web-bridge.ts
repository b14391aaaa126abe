// A node:http request as a web-standard Request, and a web-standard Response written back to node:http: the adapter
// a Fetch-style MCP handler needs behind a plain Node server (the 2.x SDK's transport, mcp-handler's route handler).

import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request body larger than this is refused (the connection is destroyed). */
const BODY_BYTES_MAX = 1 << 20;

/** Answers with a JSON-RPC error of no request, as the SDKs answer a request they refuse. */
export function jsonError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** The Mcp-Session-Id a request carries, if one. */
export function requestSessionId(request: IncomingMessage): string | undefined {
  const header = request.headers['mcp-session-id'];
  return typeof header === 'string' ? header : undefined;
}

/** The request as a web-standard Request on 127.0.0.1:`port`, with its parsed JSON body (POST); null when too large. */
export async function webRequestOf(request: IncomingMessage, port: number): Promise<{ request: Request; body: unknown } | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request) {
    bytes += (chunk as Buffer).length;
    if (bytes > BODY_BYTES_MAX) return null;
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
  let body: unknown = undefined;
  if (request.method === 'POST') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  const init: RequestInit = { method: request.method ?? 'GET', headers, ...(request.method === 'POST' ? { body: text } : {}) };
  return { request: new Request(`http://127.0.0.1:${port}${request.url ?? '/'}`, init), body };
}

/** Writes a web-standard Response to a node:http response; a client that goes away cancels the body reader. */
export async function writeResponse(answer: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(answer.status, headers);
  if (answer.body === null) {
    response.end();
    return;
  }
  response.flushHeaders();
  const reader = answer.body.getReader();
  response.on('close', () => {
    // The 2.x transport, like 1.x's, learns of a disconnect when its body reader is cancelled.
    void reader.cancel().catch(() => undefined);
  });
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    response.write(value);
  }
  response.end();
}
