// A throwaway redis-server for tests and the bench: started on a free port of 127.0.0.1 with no persistence, stopped
// by its caller. "Cannot start one" (no redis-server installed) is told apart from a start that failed.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { sleepMs, realNowMs } from '../targets/module/clock.ts';
import { freePorts } from '../targets/wire/server-process.ts';

/** A running redis-server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Milliseconds a start may take. */
const START_MS = 10_000;

/** True when a redis-server binary can be run here. */
export function redisServerAvailable(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts a redis-server bound to 127.0.0.1 on a free port, with no RDB snapshots and no AOF. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = (await freePorts(1))[0]!;
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async (): Promise<void> => {
    if (exited) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await gone;
  };
  const deadline = realNowMs() + START_MS;
  while (realNowMs() < deadline && !exited) {
    if (await answers(port)) return { url: `redis://127.0.0.1:${port}`, port, stop };
    await sleepMs(20);
  }
  await stop();
  throw new Error(`redis-server did not answer on 127.0.0.1:${port} within ${START_MS} ms`);
}
