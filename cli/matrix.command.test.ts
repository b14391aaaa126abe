// `resumecheck matrix` as a user meets it: the same bytes for the same arguments, valid JSON with --json, a planted
// bug in its cell and none in the reference's row. (Its bad input is tested with explore's, in explore.command.test.ts.)

import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('resumecheck matrix', () => {
  const args = ['matrix', '--runs', '40', '--target', 'reference', '--target', 'no-ledger', '--target', 'reference/fresh-literal'];

  it('prints the same Markdown table twice for the same arguments, a planted bug where it is', async () => {
    const first = await run([...args, '--markdown']);
    const second = await run([...args, '--markdown']);
    expect(first.code).toBe(0);
    expect(second.out).toEqual(first.out);
    const table = first.out.filter((line) => line.startsWith('|'));
    expect(table).toHaveLength(5);
    expect(table[0]).toMatch(/^\| target \| status-codes \|/);
    const noLedger = table.find((line) => line.startsWith('| `no-ledger`'))!;
    const columns = table[0]!.split('|').map((cell) => cell.trim());
    const cells = noLedger.split('|').map((cell) => cell.trim());
    expect(cells[columns.indexOf('exactly-once-execution')]).toMatch(/^✗ \d+ steps \(run \d+\)$/);
    expect(table.find((line) => line.startsWith('| `reference` |'))).not.toMatch(/✗/);
  });

  it('is valid JSON with --json: a row per target, a cell per property', async () => {
    const result = await run([...args, '--json']);
    expect(result.code).toBe(0);
    const matrix = JSON.parse(result.out.join('\n')) as { properties: string[]; rows: Array<{ target: string; cells: Record<string, { verdict: string }> }> };
    expect(matrix.rows.map((row) => row.target)).toEqual(['reference', 'no-ledger', 'reference/fresh-literal']);
    for (const row of matrix.rows) expect(Object.keys(row.cells)).toEqual(matrix.properties);
    expect(matrix.rows[2]!.cells['no-silent-gap']!.verdict).toBe('violated');
  });

  it('marks n/a what a row cannot observe, and judges a client row by the client properties (a planted client caught there)', async () => {
    const result = await run(['matrix', '--runs', '30', '--target', 'reference-modern', '--target', 'client-sdk-storm', '--json']);
    expect(result.code).toBe(0);
    const matrix = JSON.parse(result.out.join('\n')) as { rows: Array<{ target: string; cells: Record<string, { verdict: string; why?: string }> }> };
    const [modern, storm] = matrix.rows;
    // A 2026-07-28-only row: the legacy properties (status-codes, no-redelivery) are not observable; the modern ones are.
    expect(modern!.cells['status-codes']!.verdict).toBe('n/a');
    expect(modern!.cells['no-redelivery']!.verdict).toBe('n/a');
    expect(modern!.cells['disconnect-cancels']!.verdict).toBe('holds');
    expect(modern!.cells['client-reconnects-bounded']!.verdict).toBe('n/a');
    // A client row: the server properties are n/a, and the planted storm violates the bound on reconnects.
    expect(storm!.cells['no-hang']!.verdict).toBe('n/a');
    expect(storm!.cells['client-reconnects-bounded']!.verdict).toBe('violated');
  });
});
