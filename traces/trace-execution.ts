// What a trace's target name would make resumecheck execute: a shell command (`serve:CMD`, a trace found with --serve,
// or `serve-node:CMD@N:BALANCER`, found with --serve-node)
// or a module to import (`module:PATH`, a check-store trace). A trace is data: replay runs neither unless the user names
// it on the command line, so the replay command printed for such a trace names it (cli/trace-target.ts checks it).

/** What a target name would execute, and the flag with which a user names the same thing on the command line. */
export interface TraceExecution {
  readonly kind: 'command' | 'module';
  /** The command line or the module's path, as the name gives it. */
  readonly what: string;
  /**
   * How the user names the same thing on the command line, quoted for a POSIX shell: the flag and its value
   * (`--serve 'node server.mjs'`, `--target module:store.ts`), or check-store's MODULE for a contract trace.
   */
  readonly flag: string;
}

/** Quotes `text` for a POSIX shell when it holds anything but plain characters. */
export function shellQuote(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * What `name` would execute, or null for a name that runs only resumecheck's own code (a built-in target, a URL).
 * A deployment on several nodes (`NAME@N:BALANCER`) starts with its base name, so a module base is found too.
 */
export function traceExecution(name: string): TraceExecution | null {
  if (name.startsWith('serve:')) {
    const command = name.slice('serve:'.length);
    return { kind: 'command', what: command, flag: `--serve ${shellQuote(command)}` };
  }
  if (name.startsWith('serve-node:')) {
    // `serve-node:CMD@N:BALANCER`: the command runs on the nodes and balancer the name gives.
    const rest = name.slice('serve-node:'.length);
    const command = rest.slice(0, Math.max(0, rest.lastIndexOf('@')));
    return { kind: 'command', what: command, flag: `--serve-node ${shellQuote(command)}` };
  }
  if (name.startsWith('module:')) return { kind: 'module', what: name.slice('module:'.length), flag: `--target ${shellQuote(name)}` };
  return null;
}

/** The command that replays the trace at `path` of target `targetName`, naming what it runs when it runs something. */
export function replayCommand(path: string, targetName: string): string {
  const execution = traceExecution(targetName);
  return `npx resumecheck replay ${shellQuote(path)}${execution === null ? '' : ` ${execution.flag}`}`;
}
