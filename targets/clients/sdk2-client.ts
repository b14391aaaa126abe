// The 2.4.0 client (`Client` with `StreamableHTTPClientTransport` from @modelcontextprotocol/client) as the
// application of a client level run. Its default connect is the plain legacy (2025) handshake, which is what the
// reference server speaks; the planted variants change its fetch or its reconnection options, as for 1.32.2.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type ClientApplication, type ClientFactory, type ClientVariant, sdkApplication, transportOptions } from './client-application.ts';

/** The 2.4.0 client, as an application using it in the documented way would. */
export function sdk2ClientFactory(variant: ClientVariant = {}): ClientFactory {
  return (fetch, url): ClientApplication => {
    const transport = new StreamableHTTPClientTransport(url, transportOptions(fetch, variant));
    const client = new Client({ name: 'resumecheck-application', version: '0.1.0' });
    return sdkApplication(client, () => client.connect(transport));
  };
}
