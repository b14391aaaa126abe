// The one shape every command's --json output shares (and fuzz's --summary file): a schema version, the tool,
// the command, the configuration it ran with and the time it took, then the command's own result fields.

/** Raised when the envelope's shape changes incompatibly; additions of fields do not raise it. */
export const JSON_SCHEMA_VERSION = 1;

/** The fields every command's JSON output starts with. */
export interface JsonEnvelope {
  readonly schemaVersion: typeof JSON_SCHEMA_VERSION;
  readonly tool: 'resumecheck';
  readonly command: string;
  /** What the command ran with: its options after defaults were filled in. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Wall time of the command, in milliseconds (whole). */
  readonly elapsedMs: number;
}

/**
 * Wraps a command's result fields in the envelope. A result field named like an envelope field is a bug in the
 * caller, not something to overwrite silently.
 */
export function jsonEnvelope<R extends Readonly<Record<string, unknown>>>(
  command: string,
  config: Readonly<Record<string, unknown>>,
  elapsedMs: number,
  result: R,
): JsonEnvelope & R {
  for (const key of ['schemaVersion', 'tool', 'command', 'config', 'elapsedMs']) {
    if (key in result) throw new Error(`assertion: ${command}'s JSON result has a field named ${key}, which the envelope owns`);
  }
  return { schemaVersion: JSON_SCHEMA_VERSION, tool: 'resumecheck', command, config, elapsedMs: Math.round(elapsedMs), ...result };
}
