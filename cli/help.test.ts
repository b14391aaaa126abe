// What a person types first: `--help`, `CMD --help` for every command, `--version`. Each answers on stdout with
// exit 0, from the table of commands, without running anything.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STORE_CHECK_RUNS } from '../check-store/check-event-store.ts';
import { CHECK_STORE_HELP_RUNS, COMMANDS } from './commands.ts';
import { main } from './main.ts';

async function run(args: string[]): Promise<{ code: number; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err };
}

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('help and version', () => {
  it('--help lists every command and the version', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const { code, out, err } = await run(args);
      expect(code).toBe(0);
      expect(err).toEqual([]);
      expect(out).toContain(`resumecheck ${VERSION}`);
      for (const command of COMMANDS) expect(out).toMatch(new RegExp(`^  ${command.name} +${command.summary.slice(0, 20)}`, 'm'));
    }
  });

  for (const command of COMMANDS) {
    it(`${command.name} --help shows its usage and every option, and runs nothing`, async () => {
      for (const args of [[command.name, '--help'], [command.name, '-h'], ['help', command.name], [command.name, '--bogus', '--help']]) {
        const { code, out, err } = await run(args);
        expect(code).toBe(0);
        expect(err).toEqual([]);
        expect(out).toContain(`Usage:\n  resumecheck ${command.name} ${command.usage[0]}`);
        for (const option of Object.keys(command.options)) expect(out).toMatch(new RegExp(`^  --${option}\\b`, 'm'));
        expect(out).toContain('-h, --help');
      }
    });
  }

  it('--version prints the package version', async () => {
    for (const args of [['--version'], ['-V'], ['-v'], ['version']]) expect(await run(args)).toEqual({ code: 0, out: `resumecheck ${VERSION}`, err: [] });
  });

  it("check-store's help states the default its code uses", () => {
    expect(CHECK_STORE_HELP_RUNS).toBe(DEFAULT_STORE_CHECK_RUNS);
  });
});
