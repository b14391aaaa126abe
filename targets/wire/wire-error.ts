// The ways the over-the-wire target fails that are not a property violation, kept apart from both a violation and a
// harness bug: bad input (a URL, a command), a server that stopped answering mid-run, and a stop that cut a run off.

/** Bad input about the server to reach (malformed URL, non-loopback host, a command that never listens): exit 2. */
export class WireInputError extends Error {
  override readonly name = 'WireInputError';
}

/**
 * The server went away during a run (its process exited, it refused connections, it never answered a request head
 * within the bound). Not a violation the properties judge: the run cannot go on, and the CLI says what happened.
 */
export class WireFault extends Error {
  override readonly name = 'WireFault';
}

/**
 * A stop (SIGINT or SIGTERM) cut the run under way off at its next operation: over the wire a run takes seconds, and a
 * stop ends the fuzz within one operation, not at the end of the run.
 */
export class WireInterrupted extends Error {
  override readonly name = 'WireInterrupted';
}
