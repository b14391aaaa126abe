// The one JSON-schema validator every simulated McpServer shares. Left to itself, each McpServer builds its own
// (a fresh Ajv instance with its formats), which cost about a sixth of an SDK target's CPU time per session;
// the SDK takes one through the server's `jsonSchemaValidator` option.

import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

/**
 * Shared, and built once when the SDK targets load. It is module state, but only a cache: Ajv compiles each
 * schema it is given once and answers every later validation the same, so no run's outcome depends on what
 * earlier runs validated (the servers here validate no elicitation schemas at all; tool inputs go through zod).
 */
export const SHARED_JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
