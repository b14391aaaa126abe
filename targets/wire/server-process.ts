// A `--serve "CMD"` server: started in its own process group with its port in the environment, waited for until it
// listens, restarted as the restart fault, and always stopped: the whole group, so a shell's children go too, and every
// process that carries the command's mark in its environment, so a child that left the group (`setsid`) goes as well
// (targets/wire/marked-processes.ts says what that cannot reach).

import { type ChildProcess, spawn } from 'node:child_process';
import { type Server, connect, createServer } from 'node:net';
import { sleepMs, wallMs } from './clock.ts';
import { SERVE_MARK_VARIABLE, signalMarkedProcesses } from './marked-processes.ts';
import { WireFault, WireInputError } from './wire-error.ts';

/** How long a started server may take to listen. */
export const LISTEN_MS_MAX = 15_000;
/** How long a stopped server may take to exit after SIGTERM before its group gets SIGKILL. */
const TERM_MS_MAX = 500;
/** How long the group may take to be gone after SIGKILL. */
const STOP_MS_MAX = 2_000;
/** Lines of the server's output kept, to say why it stopped. */
const OUTPUT_LINES_MAX = 20;
const POLL_MS = 20;
/** Rounds of "find the marked processes, kill them" at a stop: a dying process may have forked once more meanwhile. */
const MARKED_KILL_ROUNDS_MAX = 10;

/** What a served server is told through its environment. */
export interface ServeEnvironment {
  /** The TCP port to listen on (127.0.0.1), as `PORT`. */
  readonly port: number;
  /** The incarnation, 1 for the first start, as `RESUMECHECK_EPOCH`. */
  readonly epoch: number;
  /** Further variables, e.g. the run's seed. */
  readonly extra?: Readonly<Record<string, string>>;
  /** How long it may take to listen (default {@link LISTEN_MS_MAX}). */
  readonly listenMsMax?: number;
}

/** A running (or stopped) `--serve` server. */
export interface ServerProcess {
  readonly command: string;
  /** Set when the process exited without being asked to: what happened, for a message. */
  readonly fault: string | null;
  /** The process group's ID while it runs. */
  readonly pid: number | null;
  /** Starts it (it must not be running) and waits until it accepts connections on the port. */
  start(environment: ServeEnvironment): Promise<void>;
  /**
   * Stops the whole process group; resolves once it has exited. Safe to call at any time, twice. With `kill`, SIGKILL at
   * once, with no SIGTERM first: a node's crash, which gives the server no chance to close anything.
   */
  stop(options?: { readonly kill?: boolean }): Promise<void>;
  /** Called when the process exits unasked (a crash mid-run). */
  onFault: () => void;
}

/**
 * `count` free TCP ports on 127.0.0.1, each another and none of `besides`, for served servers (the nodes of a
 * deployment) when no --url names theirs: each is held until all are found, since a port freed before the next is
 * asked for may be given again (two nodes of one `--serve-node` were given one port, and the second could not listen).
 */
export async function freePorts(count: number, besides: readonly number[] = []): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    // Each port held is another: at most `besides.length` more than `count` are asked for.
    while (ports.length < count) {
      const server = createServer();
      held.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('assertion: a TCP server without a port');
      if (!besides.includes(address.port)) ports.push(address.port);
    }
  } finally {
    await Promise.all(held.map((server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))));
  }
  return ports;
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Prepares a `--serve` server for `command` (run by `sh -c`), reached at `host`. Nothing starts until `start`. */
export function createServerProcess(command: string, host: string): ServerProcess {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stopping = false;
  let fault: string | null = null;
  let exit = 'exited';
  /** The port the running server was told to listen on. */
  let port: number | null = null;
  /** The mark in the environment of every process this command starts (unique: this process's ID and the port). */
  let mark: string | null = null;
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split(/\r?\n|\r/)) {
      if (line.trim() === '') continue;
      output.push(line.slice(0, 300));
      if (output.length > OUTPUT_LINES_MAX) output.shift();
    }
  };
  // A Node process that dies of an exception ends its output with the stack and "Node.js vX": the line that says why
  // is the last one naming an error, when there is one.
  const lastOutput = (): string => {
    if (output.length === 0) return 'no output';
    const why = [...output].reverse().find((line) => /\b(?:\w*Error|assertion)\b/.test(line) && !/^\s+at /.test(line));
    return why === undefined ? `its last output: ${output[output.length - 1]}` : `its error: ${why.trim()}`;
  };
  /** Kills what is left of the marked processes, round after round until none is found (bounded). */
  const killMarked = (): void => {
    if (mark === null) return;
    for (let round = 0; round < MARKED_KILL_ROUNDS_MAX && signalMarkedProcesses(mark, 'SIGKILL') > 0; round += 1);
  };
  // If resumecheck itself exits (or is interrupted) the server must not be left behind.
  const killGroup = (): void => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    killMarked();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    // A command that handles the signal itself (fuzz, replay: they finish, write what was done and stop the server
    // as they return) is left to do so; the group is killed at exit all the same.
    if (process.listenerCount(signal) > 0) return;
    killGroup();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };

  const handle: ServerProcess = {
    command,
    get fault() {
      return fault;
    },
    get pid() {
      return child?.pid ?? null;
    },
    onFault: () => {},
    async start(environment) {
      if (child !== null) throw new Error('assertion: start of a served server already running');
      stopping = false;
      fault = null;
      port = environment.port;
      mark = `${process.pid}-${environment.port}`;
      output.length = 0;
      const spawned = spawn('sh', ['-c', command], {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...environment.extra,
          PORT: String(environment.port),
          RESUMECHECK_EPOCH: String(environment.epoch),
          [SERVE_MARK_VARIABLE]: mark,
        },
      });
      child = spawned;
      process.on('exit', killGroup);
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      spawned.stdout?.on('data', keep);
      spawned.stderr?.on('data', keep);
      exited = new Promise<void>((resolve) => {
        spawned.once('exit', (code, signal) => {
          if (!stopping) {
            exit = signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`;
            fault = `the server (${command}) ${exit} (${lastOutput()})`;
            handle.onFault();
          }
          // The shell may exit before its children: take the group down with it.
          if (spawned.pid !== undefined) {
            try {
              process.kill(-spawned.pid, 'SIGKILL');
            } catch {
              // The group is gone already.
            }
          }
          resolve();
        });
        spawned.once('error', (error) => {
          fault = `the server (${command}) could not be started: ${error.message}`;
          resolve();
        });
      });
      const listenMsMax = environment.listenMsMax ?? LISTEN_MS_MAX;
      const deadline = wallMs() + listenMsMax;
      for (;;) {
        if (stopping) throw new WireFault(`the server (${command}) was stopped while it started`);
        if (fault !== null) {
          const message = `the server (${command}) ${exit} before it listened on ${host}:${environment.port} (${lastOutput()})`;
          child = null;
          await handle.stop();
          throw environment.epoch === 1 ? new WireInputError(message) : new WireFault(`after a restart, ${message}`);
        }
        if (await canConnect(host, environment.port)) return;
        if (wallMs() > deadline) {
          await handle.stop();
          const message = `the server (${command}) did not listen on ${host}:${environment.port} within ${listenMsMax} ms (${lastOutput()}); it was stopped`;
          throw environment.epoch === 1 ? new WireInputError(message) : new WireFault(`after a restart, ${message}`);
        }
        await sleepMs(POLL_MS);
      }
    },
    async stop(options) {
      stopping = true;
      const running = child;
      child = null;
      process.off('exit', killGroup);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (running === null || running.pid === undefined) {
        // Nothing of the group runs, but a process that left it may: a shell that exited before it listened, say.
        killMarked();
        return exited;
      }
      let shellExited = false;
      void exited.then(() => {
        shellExited = true;
      });
      // Whether the server still answers: what matters for a restart on the same port. (A process of the group may
      // linger as a zombie until the container's init reaps it; a zombie holds no socket.)
      const answering = async (): Promise<boolean> => port !== null && (await canConnect(host, port));
      if (options?.kill !== true && running.exitCode === null && running.signalCode === null) {
        try {
          process.kill(-running.pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
        if (mark !== null) signalMarkedProcesses(mark, 'SIGTERM');
        const deadline = wallMs() + TERM_MS_MAX;
        while ((!shellExited || (await answering())) && wallMs() < deadline) await sleepMs(POLL_MS / 2);
      }
      // Whatever is left of the group goes now: the shell may have exited before its server, or not at all; and so does
      // every process that left the group but carries the mark.
      try {
        process.kill(-running.pid, 'SIGKILL');
      } catch {
        // The group is gone.
      }
      killMarked();
      await exited;
      const deadline = wallMs() + STOP_MS_MAX;
      while ((await answering()) && wallMs() < deadline) await sleepMs(POLL_MS / 2);
    },
  };
  return handle;
}
