// A served command is stopped with everything it started, a child that left its process group (setsid) included; and
// a trace found on a served command of any length is written (its file name does not grow with the command).

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planWalk, walkChoices } from '../../sim/choices.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { fuzz } from '../../sim/search/fuzz.ts';
import { writeTrace } from '../../traces/store.ts';
import { canFindMarkedProcesses } from './marked-processes.ts';
import { createWireTarget } from './wire.target.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-served-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** True while a process with this ID is alive and not a zombie (an exited child nobody reaped yet holds nothing). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

describe.runIf(canFindMarkedProcesses())('a served command is stopped with everything it started', () => {
  it('a setsid grandchild of the served command is gone after a fuzz', async () => {
    const file = join(scratch, 'daemon.pid');
    const command = `node targets/wire/fixtures/setsid-daemon.mjs ${file} && exec node examples/probe-server.mjs --target reference`;
    const target = await createWireTarget({ url: null, serve: command, allowRemote: false, timing: { quietMs: 40 } });
    try {
      await target.prepare();
      expect(existsSync(file)).toBe(true);
      const daemon = Number(readFileSync(file, 'utf8').trim());
      // It left the group: stopping the group alone would not reach it.
      expect(alive(daemon)).toBe(true);
      const outcome = await fuzz({ target, config: resolveConfig({ seed: 'setsid', stepsMax: 8, restartsMax: 0 }), runsMax: 2, timeMs: null });
      expect(outcome.runs).toBe(2);
      await target.stop();
      expect(alive(daemon)).toBe(false);
    } finally {
      await target.stop();
    }
  });
});

describe('a trace found on a long served command', () => {
  it('a 300-character --serve command: the fuzz writes its trace, under a name of bounded length', async () => {
    // Padded with an environment assignment the server ignores: the command is what the trace's target names.
    const base = 'node examples/probe-server.mjs --target cross-stream-replay';
    const command = `RESUMECHECK_TEST_PADDING=${'p'.repeat(300 - base.length - 'RESUMECHECK_TEST_PADDING= '.length)} ${base}`;
    expect(command).toHaveLength(300);
    const out = join(scratch, 'long');
    const target = await createWireTarget({ url: null, serve: command, allowRemote: false, timing: { quietMs: 40 } });
    try {
      await target.prepare();
      const written: string[] = [];
      // Seed 1's runs 3 and 5 reach the planted bug in 20 steps (targets/wire/wire.target.test.ts); shrinking is cut
      // to a few runs, as the file's name is what is checked.
      const outcome = await fuzz({
        target,
        config: resolveConfig({ seed: '1', stepsMax: 20, restartsMax: 0 }),
        runsMax: 5,
        timeMs: null,
        properties: ['no-cross-stream-replay'],
        shrinkBounds: { fastCheckEvaluationsMax: 1, passEvaluationsMax: 1 },
        onDiscovery: ({ trace }) => {
          written.push(writeTrace(out, trace).path);
        },
        onFinding: ({ trace }) => {
          written.push(writeTrace(out, trace).path);
        },
      });
      expect(outcome.findings.map((finding) => finding.trace.verdict?.property)).toEqual(['no-cross-stream-replay']);
      expect(written.length).toBeGreaterThan(0);
      for (const name of readdirSync(out)) expect(name.length).toBeLessThan(120);
      expect(JSON.parse(readFileSync(written[0]!, 'utf8')).target).toBe(`serve:${command}`);
    } finally {
      await target.stop();
    }
  });
});

describe('a served SDK server whose tool is cancelled while its next step is on the way', () => {
  it('takes no step for the cancelled execution and stays up (seed bench-wire.1, the run the bench crashed on)', async () => {
    // The control endpoint's answer to `next` crossed the SDK's cancellation of the tool (the client's disconnect):
    // the probe advanced an execution that had stopped, the SDK server's assertion threw, and the process exited.
    const target = await createWireTarget({ url: null, serve: 'node examples/probe-server.mjs --target sdk', allowRemote: false });
    try {
      await target.prepare();
      const config = { ...resolveConfig({ restartsMax: 0 }), seed: 'bench-wire.1' };
      const result = await runSimulation(target, config, walkChoices(planWalk(config.seed, config.stepsMax)));
      expect(result.steps).toBeGreaterThan(0);
      // The served process is still up: preparing again finds no fault (a dead server's prepare throws its exit).
      await target.prepare();
    } finally {
      await target.stop();
    }
  });
});
