// The 1.32.2 client (`Client` with `StreamableHTTPClientTransport`) as the application of a client level run, with
// optional wrappers: the planted clients are the real one with its fetch or its reconnection options changed.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SHARED_JSON_SCHEMA_VALIDATOR } from '../sdk/json-schema-validator.ts';
import { type ClientApplication, type ClientFactory, type ClientVariant, sdkApplication, transportOptions } from './client-application.ts';

/** The 1.32.2 client, as an application using it in the documented way would. */
export function sdkClientFactory(variant: ClientVariant = {}): ClientFactory {
  return (fetch, url): ClientApplication => {
    const transport = new StreamableHTTPClientTransport(url, transportOptions(fetch, variant));
    // One validator for every run (targets/sdk/json-schema-validator.ts): a fresh Ajv per client cost a tenth of a run.
    const client = new Client({ name: 'resumecheck-application', version: '0.1.0' }, { jsonSchemaValidator: SHARED_JSON_SCHEMA_VALIDATOR });
    return sdkApplication(client, () => client.connect(transport));
  };
}
