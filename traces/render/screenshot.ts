// The README's screenshot of the HTML page: `npx tsx traces/render/screenshot.ts docs/images/render-html.png`. Opens the
// page of the corpus's cross-session counterexample in headless Chromium, steps to the violating step, highlights the
// session the leaked result belongs to, and saves the top of the page (verdict, property, replay command, diagram) as a PNG (atomically).

import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const victim = /delivered to session (\w+)/.exec(trace.verdict?.explanation ?? '')?.[1];
    const owner = /session (\w+)\)/.exec(trace.verdict?.explanation ?? '')?.[1];
    if (owner !== undefined) await tab.selectOption('select.highlight', `session:${owner}`);
    await tab.evaluate(() => window.scrollTo(0, 0));
    const temporary = join(scratch, 'shot.png');
    await tab.screenshot({ path: temporary, fullPage: false });
    renameSync(temporary, join(ROOT, out));
    process.stdout.write(`${out}: step ${violating + 1} of ${trace.steps.length}, session ${owner ?? '?'} highlighted (the result leaked to ${victim ?? '?'})\n`);
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
