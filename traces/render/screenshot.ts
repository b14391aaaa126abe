// The README's screenshot of the HTML page: `npx tsx traces/render/screenshot.ts docs/images/render-html.png`. Opens the
// page of the corpus's cross-session counterexample in headless Chromium, steps to the violating step, highlights the
// session the leaked result belongs to, and saves the top of the page (verdict, property, replay command, diagram) as a PNG (atomically).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFileAtomically } from '../store.ts';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startChromium } from './chromium.ts';
import { renderHtml } from './html.ts';
import { readReadableTrace } from './readable.ts';
import { ROOT } from './trace-files.ts';

const out = process.argv[2];
if (out === undefined) {
  process.stderr.write('usage: npx tsx traces/render/screenshot.ts OUT.png\n');
  process.exitCode = 2;
} else {
  const trace = readReadableTrace('traces/corpus/sdk-shared--no-cross-session-delivery.json');
  const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-screenshot-'));
  const page = join(scratch, 'page.html');
  writeFileSync(page, renderHtml(trace));
  const browser = await startChromium();
  try {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 1180, height: 1700 });
    await tab.goto(pathToFileURL(page).href);
    const violating = trace.verdict?.step ?? trace.steps.length - 1;
    for (let step = 0; step <= violating; step += 1) await tab.click('.toolbar .next');
    // The leaked message, from the records: a frame of the violating step produced in another session than the one
    // its connection's requests carried.
    const sessionOf = new Map<number, string>();
    for (const step of trace.steps) {
      for (const record of step.observations) if (record.kind === 'request' && typeof record['connection'] === 'number' && typeof record['session'] === 'string') sessionOf.set(record['connection'], record['session']);
    }
    const leaked = trace.steps[violating]?.observations.find(
      (record) => record.kind === 'frame' && typeof record['session'] === 'string' && typeof record['connection'] === 'number' && sessionOf.has(record['connection']) && sessionOf.get(record['connection']) !== record['session'],
    );
    const owner = leaked === undefined ? undefined : String(leaked['session']);
    const victim = leaked === undefined ? undefined : sessionOf.get(leaked['connection'] as number);
    if (owner !== undefined) await tab.selectOption('select.highlight', `session:${owner}`);
    await tab.evaluate(() => window.scrollTo(0, 0));
    writeFileAtomically(resolve(ROOT, out), await tab.screenshot({ fullPage: false }));
    process.stdout.write(`${out}: step ${violating + 1} of ${trace.steps.length}, session ${owner ?? '?'} highlighted (the result leaked to ${victim ?? '?'})\n`);
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
