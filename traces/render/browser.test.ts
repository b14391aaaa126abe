// The pages and diagrams as a reader's browser shows them: headless Chromium (Debian's package) opens each page and the
// test asserts, from the laid-out page, that every step, every lane and the violation note have a place on screen, that
// nothing outside the page is requested, that it reads without JavaScript and steps and highlights with it; Mermaid
// itself, loaded into the same browser, parses every diagram. Skipped only when Chromium cannot start, saying why.

import { textRecord } from '../../sim/levels/records.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentTrace, readIncidents } from '../corpus/incidents/incidents.ts';
import { readTrace } from '../store.ts';
import { buildDiagram } from './diagram.ts';
import { renderHtml, renderRunHtml } from './html.ts';
import { renderMermaid } from './mermaid.ts';
import { type ReadableTrace, readReadableTrace, readableFromTrace } from './readable.ts';
import { type Chromium, chromiumMissing, startChromium } from './chromium.ts';
import { ROOT, keptTraceFiles } from './trace-files.ts';

const MERMAID = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-browser-'));

let browser: Chromium | null = null;
let unavailable: string | null = chromiumMissing();

beforeAll(async () => {
  if (unavailable === null) {
    try {
      browser = await startChromium();
    } catch (error) {
      unavailable = `chromium did not start: ${String((error as Error).message).split('\n')[0]}`;
    }
  }
  if (unavailable !== null) process.stderr.write(`browser test skipped: ${unavailable}\n`);
});

afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Opens a page file, recording every request it makes and every console error. */
async function open(html: string, name: string, options: { readonly javaScript?: boolean } = {}): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const path = join(scratch, name);
  writeFileSync(path, html);
  const page = await browser!.context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  if (options.javaScript === false) {
    const session = await page.context().newCDPSession(page);
    await session.send('Emulation.setScriptExecutionDisabled', { value: true });
  }
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  return { page, requests, errors };
}

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

async function boxes(page: Page, selector: string): Promise<Box[]> {
  return page.$$eval(selector, (elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }),
  );
}

/** Every step, lane and the violation have a non-empty box, in order, and the violation sits after its step. */
async function expectLaidOut(page: Page, trace: ReadableTrace, prefix: string): Promise<void> {
  const diagram = buildDiagram(trace);
  const section = `section#${prefix}`;
  const rows = await boxes(page, `${section} tr.step`);
  expect(rows).toHaveLength(trace.steps.length);
  for (const row of rows) expect(row.width > 0 && row.height > 0).toBe(true);
  const heads = await boxes(page, `${section} svg g.row.step-head`);
  expect(heads).toHaveLength(trace.steps.length);
  heads.forEach((head, index) => {
    expect(head.width > 0 && head.height > 0).toBe(true);
    if (index > 0) expect(head.y).toBeGreaterThan(heads[index - 1]!.y);
  });
  const lanes = await boxes(page, `${section} svg g.lane`);
  expect(lanes).toHaveLength(diagram.participants.length);
  for (const lane of lanes) expect(lane.width > 0 && lane.height > 0).toBe(true);
  const texts = await page.$$eval(`${section} tr.step td.action`, (cells) => cells.map((cell) => cell.textContent));
  expect(texts).toEqual(trace.steps.map((step) => step.action));
  if (trace.verdict === null) return;
  const [row] = await boxes(page, `${section} tr.violation`);
  const [note] = await boxes(page, `${section} svg g.row.violation`);
  expect(row!.width > 0 && row!.height > 0 && note!.width > 0 && note!.height > 0).toBe(true);
  const after = diagram.violation!.after;
  expect(note!.y).toBeGreaterThan(heads[after]!.y);
  if (after + 1 < heads.length) expect(note!.y).toBeLessThan(heads[after + 1]!.y);
  expect(await page.textContent(`${section} tr.violation`)).toContain(`✗ ${trace.verdict.property}`);
  expect(await page.textContent(`${section} dd.statement`)).toBe(trace.verdict.statement);
  expect(await page.textContent(`${section} pre.command`)).toBe(trace.replay);
}

function onlyLocal(requests: readonly string[]): string[] {
  return requests.filter((url) => !url.startsWith('file:'));
}

const PAGES = [
  'traces/corpus/sdk-shared--no-cross-session-delivery.json',
  'traces/render/fixtures/no-epoch-check--no-lost-result.json',
  'traces/render/fixtures/store-contract--sdk-example-store+shared--session-isolation.json',
  'traces/render/fixtures/module_sdk-example-store+shared--session-isolation.json',
];

describe('the HTML page in headless Chromium', () => {
  for (const file of PAGES) {
    it(`${file}: every step, lane and the violation laid out; nothing requested from outside; no error`, async (context) => {
      if (browser === null) return context.skip(`browser unavailable: ${unavailable}`);
      const trace = readReadableTrace(join(ROOT, file));
      const { page, requests, errors } = await open(renderHtml(trace), 'page.html');
      await expectLaidOut(page, trace, 'trace');
      expect(onlyLocal(requests)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('reads without JavaScript: the same steps and violation, no toolbar', async (context) => {
    if (browser === null) return context.skip(`browser unavailable: ${unavailable}`);
    const trace = readReadableTrace(join(ROOT, PAGES[0]!));
    const { page, requests } = await open(renderHtml(trace), 'no-script.html', { javaScript: false });
    expect(await page.$$('.toolbar')).toHaveLength(0);
    await expectLaidOut(page, trace, 'trace');
    expect(onlyLocal(requests)).toEqual([]);
    await page.close();
  });

  it('steps through the trace and highlights one session', async (context) => {
    if (browser === null) return context.skip(`browser unavailable: ${unavailable}`);
    const trace = readReadableTrace(join(ROOT, PAGES[0]!));
    const { page, errors } = await open(renderHtml(trace), 'interactive.html');
    expect(await page.textContent('.toolbar .status')).toBe(`whole trace (${trace.steps.length} steps)`);
    await page.click('.toolbar .next');
    await page.click('.toolbar .next');
    expect(await page.textContent('.toolbar .status')).toBe(`step 2 of ${trace.steps.length}`);
    expect(await page.$$eval('tr.step.current', (rows) => rows.map((row) => row.getAttribute('data-step')))).toEqual(['1']);
    const future = await page.$$eval('svg g.row.future', (rows) => rows.map((row) => Number(row.getAttribute('data-step'))));
    expect(future.length).toBeGreaterThan(0);
    expect(future.every((step) => step > 1)).toBe(true);
    const session = (await page.$$eval('select.highlight option', (options) => options.map((option) => (option as HTMLOptionElement).value))).find((value) => value.startsWith('session:'))!;
    await page.selectOption('select.highlight', session);
    const marked = await page.$$eval('svg g.row.hl, tr.step.hl', (elements) => elements.map((element) => element.getAttribute('data-tags') ?? ''));
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((tags) => tags.split(' ').includes(session))).toBe(true);
    const unmarked = await page.$$eval('svg g.row:not(.hl)', (elements) => elements.map((element) => getComputedStyle(element).opacity));
    expect(unmarked.every((opacity) => Number(opacity) < 1)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the page of a fuzz run: every finding with its diagram and steps', async (context) => {
    if (browser === null) return context.skip(`browser unavailable: ${unavailable}`);
    const files = ['traces/corpus/sdk-shared--no-cross-session-delivery.json', 'traces/corpus/sdk-shared--exactly-once-execution.json'];
    const findings = files.map((file, index) => ({ trace: readTrace(join(ROOT, file)), path: file, run: index + 1 }));
    const { page, requests, errors } = await open(renderRunHtml(findings, { target: 'sdk-shared', seed: '1', runs: 10, steps: 100 }), 'run.html');
    expect(await page.$$('section.trace')).toHaveLength(2);
    for (const [index, finding] of findings.entries()) await expectLaidOut(page, readableFromTrace(finding.trace, finding.path), `finding-${index + 1}`);
    expect(await page.$$('.toolbar')).toHaveLength(2);
    expect(onlyLocal(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the Mermaid text, parsed by Mermaid in the same browser', () => {
  it('parses every trace under traces/ and every incident as shown in the README', async (context) => {
    if (browser === null) return context.skip(`browser unavailable: ${unavailable}`);
    const texts = keptTraceFiles().map((file) => ({ file, text: renderMermaid(readReadableTrace(join(ROOT, file))) }));
    for (const incident of readIncidents()) {
      const trace = await incidentTrace(incident);
      texts.push({ file: incident.file, text: renderMermaid(readableFromTrace(trace, incident.file)) });
    }
    const page = await browser.context.newPage();
    await page.setContent('<!DOCTYPE html><html><body></body></html>');
    await page.addScriptTag({ content: readFileSync(MERMAID, 'utf8') });
    const parse = (text: string) =>
      page.evaluate(async (source) => {
        try {
          await (globalThis as unknown as { mermaid: { parse(text: string): Promise<unknown> } }).mermaid.parse(source);
          return 'ok';
        } catch (error) {
          return String((error as Error).message ?? error).split('\n').slice(0, 3).join(' ');
        }
      }, text);
    // The check can fail: an unescaped `;` in a message ends the statement early.
    expect(await parse('sequenceDiagram\n  A->>B: one; two\n')).not.toBe('ok');
    const results = [];
    for (const { file, text } of texts) results.push(`${file}: ${await parse(text)}`);
    expect(results).toEqual(texts.map(({ file }) => `${file}: ok`));
    await page.close();
  });

  it("shows Mermaid's special characters as themselves", async (context) => {
    if (browser === null) return context.skip(`browser unavailable: ${unavailable}`);
    const nasty = 'a; b # c: d %% e <b>f</b> "g" {h}';
    const trace: ReadableTrace = {
      kind: 'simulation',
      target: 'test',
      seed: 's',
      clients: 1,
      steps: [{ action: `client 1 calls ${nasty}`, phase: 'faults', notes: [`POST #0 ${nasty}`], actionRecord: textRecord(`client 1 calls ${nasty}`), observations: [textRecord(`POST #0 ${nasty}`)] }],
      verdict: null,
      replay: 'npx resumecheck replay t.json',
      shrink: null,
    };
    const page = await browser.context.newPage();
    await page.setContent('<!DOCTYPE html><html><body><div id="out"></div></body></html>');
    await page.addScriptTag({ content: readFileSync(MERMAID, 'utf8') });
    const shown = await page.evaluate(async (source) => {
      const mermaid = (globalThis as unknown as { mermaid: { initialize(options: object): void; render(id: string, text: string): Promise<{ svg: string }> } }).mermaid;
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
      const { svg } = await mermaid.render('check', source);
      const holder = document.getElementById('out')!;
      holder.innerHTML = svg;
      return Array.from(holder.querySelectorAll('text')).map((text) => text.textContent ?? '');
    }, renderMermaid(trace));
    expect(shown).toContain(`POST #0 ${nasty}`);
    await page.close();
  });
});
