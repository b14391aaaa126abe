// A trace as one self-contained HTML page: the verdict, the property with its statement and source, the replay command,
// the sequence diagram as inline SVG, and the steps table. Everything is in the page (no network, no external asset;
// a Content-Security-Policy forbids loading any) and readable without JavaScript; with it, the reader steps through
// the trace and highlights one session, call or connection. All trace text is escaped.

import { writeFileAtomically } from '../store.ts';
import type { Trace } from '../trace.ts';
import { buildDiagram, diagramTags } from './diagram.ts';
import { type ReadableTrace, readableFromTrace } from './readable.ts';
import { escapeXml, renderSvg } from './svg.ts';
import { uncheckedText, verdictHeadline } from './text.ts';

const STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5d6675; --line: #c9ced8; --bad: #b3261e; --bad-bg: #fde4e4; --ok: #1e7a34; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; padding: 16px 24px 48px; background: #fbfbfd; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 22px 0 8px; }
h1.bad { color: var(--bad); } h1.ok { color: var(--ok); }
.sub { color: var(--muted); margin: 0 0 12px; }
section.trace { border-top: 1px solid var(--line); padding-top: 12px; margin-top: 20px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; }
dt { color: var(--muted); } dd { margin: 0; }
pre, code { font: 12.5px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre.command { background: #eef0f5; padding: 8px 10px; border-radius: 4px; overflow-x: auto; }
.diagram { overflow-x: auto; border: 1px solid var(--line); background: #fff; border-radius: 4px; }
svg.sequence { display: block; font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; }
svg .head { fill: #e9ecf3; stroke: #8d96a8; } svg text.head { fill: var(--ink); stroke: none; font-weight: 600; }
svg .lifeline { stroke: #b8bfcc; stroke-dasharray: 3 3; }
svg .arrow { stroke: #34405a; stroke-width: 1.3; fill: none; } svg .arrow.event { stroke: #2d6cb5; } svg .arrow.end { stroke: #7a8397; }
svg .head-arrow { fill: #34405a; } svg .head-open { stroke: #2d6cb5; stroke-width: 1.3; } svg .head-cross { stroke: #7a8397; stroke-width: 1.5; }
svg .label { fill: var(--ink); white-space: pre; } svg .label.step { font-weight: 600; }
svg .note { fill: #fff8d8; stroke: #d8c77a; } svg .note.step { fill: #eef0f5; stroke: #c9ced8; }
svg .note.fault { fill: #ffe9d6; stroke: #e0a066; } svg .note.server { fill: #eaf4ea; stroke: #9cc79f; } svg .note.phase { fill: #e6eefc; stroke: #9bb3e0; }
svg .note.violation { fill: var(--bad-bg); stroke: var(--bad); } svg text.violation { fill: var(--bad); font-weight: 600; }
table.steps { border-collapse: collapse; width: 100%; background: #fff; }
table.steps th, table.steps td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
table.steps th { background: #eef0f5; }
table.steps td.n { text-align: right; width: 3em; } table.steps td.phase { width: 6em; color: var(--muted); }
table.steps .notes div { font: 12px/1.35 ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-all; }
tr.violation td { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
.toolbar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 8px 0; position: sticky; top: 0; background: #fbfbfd; padding: 6px 0; z-index: 1; }
.toolbar button, .toolbar select { font: inherit; padding: 2px 10px; }
tr.current td { background: #fff3b8; }
svg g.row.current .note.step { fill: #fff3b8; stroke: #d8b400; }
svg g.row.future { opacity: 0.18; }
.highlighting svg g.row:not(.hl) { opacity: 0.22; }
.highlighting tr.step:not(.hl) { opacity: 0.4; }
svg g.row.hl .arrow { stroke-width: 2.6; } tr.hl td.action { font-weight: 600; }
`;

/** Runs only in the reader's browser; the page is complete without it. */
const SCRIPT = `
(function () {
  for (const section of document.querySelectorAll('section.trace')) {
    const rows = Array.from(section.querySelectorAll('tr.step'));
    const marks = Array.from(section.querySelectorAll('svg g.row'));
    const count = rows.length;
    let current = -1;
    const bar = document.createElement('div');
    bar.className = 'toolbar';
    const previous = document.createElement('button');
    previous.type = 'button'; previous.textContent = '◀ previous'; previous.className = 'previous';
    const next = document.createElement('button');
    next.type = 'button'; next.textContent = 'next ▶'; next.className = 'next';
    const all = document.createElement('button');
    all.type = 'button'; all.textContent = 'whole trace'; all.className = 'all';
    const status = document.createElement('span');
    status.className = 'status';
    const select = document.createElement('select');
    select.className = 'highlight';
    const none = document.createElement('option');
    none.value = ''; none.textContent = 'highlight: nothing';
    select.appendChild(none);
    for (const tag of (section.getAttribute('data-tags') || '').split(' ').filter(Boolean)) {
      const option = document.createElement('option');
      option.value = tag; option.textContent = 'highlight ' + tag.replace(':', ' ');
      select.appendChild(option);
    }
    bar.append(previous, next, all, status, select);
    section.querySelector('.diagram').before(bar);
    function show(step) {
      current = Math.max(-1, Math.min(count - 1, step));
      for (const row of rows) row.classList.toggle('current', Number(row.dataset.step) === current);
      for (const mark of marks) {
        const at = Number(mark.dataset.step);
        mark.classList.toggle('current', at === current);
        mark.classList.toggle('future', current >= 0 && at > current);
      }
      status.textContent = current < 0 ? 'whole trace (' + count + ' steps)' : 'step ' + (current + 1) + ' of ' + count;
      const row = rows[current];
      if (row) row.scrollIntoView({ block: 'nearest' });
    }
    function highlight(tag) {
      section.classList.toggle('highlighting', tag !== '');
      for (const element of rows.concat(marks)) {
        element.classList.toggle('hl', tag !== '' && (element.dataset.tags || '').split(' ').includes(tag));
      }
    }
    previous.addEventListener('click', () => show(current < 0 ? count - 1 : current - 1));
    next.addEventListener('click', () => show(current + 1));
    all.addEventListener('click', () => show(-1));
    select.addEventListener('change', () => highlight(select.value));
    for (const row of rows) row.addEventListener('click', () => show(Number(row.dataset.step)));
    section.addEventListener('keydown', (event) => {
      if (event.target === select) return;
      if (event.key === 'ArrowRight') show(current + 1);
      if (event.key === 'ArrowLeft') show(current - 1);
    });
    show(-1);
  }
})();
`;

/** The page shell: inline style and script only; the policy forbids fetching anything. */
function page(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeXml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function titleOf(trace: ReadableTrace): string {
  // The same headline as the text renderer, with the same severity labels.
  return trace.verdict === null ? `✓ no violation on ${trace.target}` : verdictHeadline(trace.target, trace.verdict);
}

/** One trace as a `<section>`; `id` prefixes every element ID in it. */
function traceSection(trace: ReadableTrace, id: string, heading: 'h1' | 'h2'): string {
  const diagram = buildDiagram(trace);
  const verdict = trace.verdict;
  const parts: string[] = [];
  parts.push(`<section class="trace" id="${id}" tabindex="-1" data-tags="${escapeXml(diagramTags(diagram).join(' '))}">`);
  parts.push(`<${heading} class="${verdict === null ? 'ok' : 'bad'}">${escapeXml(titleOf(trace))}</${heading}>`);
  const facts = [
    trace.kind === 'simulation' ? 'simulator trace' : 'EventStore contract trace',
    `seed ${trace.seed}`,
    `${trace.steps.length} steps`,
    ...(trace.shrink === null ? [] : [`shrunk from ${trace.shrink.originalLength} to ${trace.shrink.shrunkLength}`]),
  ];
  parts.push(`<p class="sub">${escapeXml(facts.join(' · '))}</p>`);
  if (verdict !== null) {
    const where = verdict.step === null ? 'after the last step (liveness phase)' : `step ${verdict.step + 1}`;
    parts.push('<h3>Verdict</h3>');
    parts.push(`<dl class="verdict"><dt>property</dt><dd><code>${escapeXml(verdict.property)}</code> (${escapeXml(verdict.kind)})</dd><dt>must hold</dt><dd class="statement">${escapeXml(verdict.statement)}</dd><dt>source</dt><dd class="source">${escapeXml(verdict.source)}</dd>${verdict.triggeredBy === undefined ? '' : `<dt>triggered by</dt><dd class="triggered">${escapeXml(verdict.triggeredBy)}</dd>`}<dt>happened</dt><dd class="explanation">${escapeXml(verdict.explanation)}</dd>${verdict.signature === undefined ? '' : `<dt>how</dt><dd class="signature">${escapeXml(verdict.signature)}</dd>`}${verdict.unchecked === undefined ? '' : `<dt>unchecked</dt><dd class="unchecked">${escapeXml(uncheckedText(verdict.unchecked))}</dd>`}<dt>where</dt><dd>${escapeXml(where)}</dd></dl>`);
  }
  parts.push('<h3>Replay</h3>');
  parts.push(`<pre class="command"><code>${escapeXml(trace.replay)}</code></pre>`);
  parts.push('<h3>Sequence</h3>');
  parts.push(`<div class="diagram">${renderSvg(diagram, { idPrefix: id })}</div>`);
  parts.push('<h3>Steps</h3>');
  parts.push('<table class="steps"><thead><tr><th>#</th><th>phase</th><th>action</th><th>what was sent and seen</th></tr></thead><tbody>');
  for (const step of diagram.steps) {
    const notes = trace.steps[step.index]!.notes.map((note) => `<div>${escapeXml(note)}</div>`).join('');
    parts.push(`<tr class="step" id="${id}-step-${step.index + 1}" data-step="${step.index}" data-tags="${escapeXml(step.tags.join(' '))}"><td class="n">${step.index + 1}</td><td class="phase">${escapeXml(step.phase ?? '')}</td><td class="action">${escapeXml(step.action)}</td><td class="notes">${notes}</td></tr>`);
    if (diagram.violation !== null && diagram.violation.after === step.index) {
      parts.push(`<tr class="violation" id="${id}-violation" data-tags="${escapeXml(diagram.violation.tags.join(' '))}"><td class="n">✗</td><td colspan="3">${escapeXml(diagram.violation.text)}</td></tr>`);
    }
  }
  if (diagram.violation !== null && diagram.steps.length === 0) parts.push(`<tr class="violation" id="${id}-violation"><td class="n">✗</td><td colspan="3">${escapeXml(diagram.violation.text)}</td></tr>`);
  parts.push('</tbody></table>');
  parts.push('</section>');
  return parts.join('\n');
}

/** A trace as one self-contained HTML page. Deterministic: the same trace gives the same bytes. */
export function renderHtml(trace: ReadableTrace): string {
  return page(titleOf(trace), traceSection(trace, 'trace', 'h1'));
}

/** One finding of a fuzz run, as the run page shows it. */
export interface RunFinding {
  readonly trace: Trace;
  /** Where the trace was written (for its replay command); null when it was not. */
  readonly path: string | null;
  /** The 1-based run that found it. */
  readonly run?: number;
}

/** What the run page says about the run as a whole. */
export interface RunSummary {
  readonly target: string;
  readonly seed: string;
  readonly runs: number;
  readonly steps: number;
  /** The fuzz's verdict line, severities weighed, as the terminal prints it (cli/fuzz.command.ts); absent: the findings counted. */
  readonly verdict?: string;
  /** The run failed (its exit code is not 0); absent: it did when anything was found. */
  readonly failed?: boolean;
}

/** The page of a whole fuzz run: a summary, then each finding with its verdict, diagram and steps. */
export function renderRunHtml(findings: readonly RunFinding[], summary: RunSummary | null = null): string {
  const properties = findings.map((finding) => finding.trace.verdict?.property ?? 'holds');
  // A property may have several findings, one per mechanism (its signature): counted once, its mechanisms said.
  const mechanisms = new Map<string, number>();
  for (const property of properties) mechanisms.set(property, (mechanisms.get(property) ?? 0) + 1);
  const named = [...mechanisms].map(([property, count]) => (count === 1 ? property : `${property} (${count} mechanisms)`));
  const title = summary === null ? `resumecheck: ${findings.length} findings` : `resumecheck fuzz: ${summary.target}, seed ${summary.seed}`;
  const parts: string[] = [`<h1 class="${(summary?.failed ?? findings.length > 0) ? 'bad' : 'ok'}">${escapeXml(title)}</h1>`];
  const counted = summary === null ? '' : ` in ${summary.runs} runs (${summary.steps} steps)`;
  const line = summary?.verdict ?? (findings.length === 0 ? `no violation${counted}` : `${mechanisms.size} ${mechanisms.size === 1 ? 'property' : 'properties'} violated${counted}: ${named.join(', ')}`);
  parts.push(`<p class="sub">${escapeXml(line)}</p>`);
  if (findings.length > 0) {
    parts.push('<ol class="findings">');
    findings.forEach((finding, index) => {
      const found = finding.run === undefined ? '' : ` (run ${finding.run})`;
      const signature = finding.trace.verdict?.signature;
      const how = signature === undefined || mechanisms.get(properties[index]!) === 1 ? '' : ` — ${signature}`;
      parts.push(`<li><a href="#finding-${index + 1}">${escapeXml(`${properties[index]}${how}${found}`)}</a></li>`);
    });
    parts.push('</ol>');
  }
  findings.forEach((finding, index) => {
    const path = finding.path ?? `${finding.trace.target}--${properties[index]}.json`;
    parts.push(traceSection(readableFromTrace(finding.trace, path), `finding-${index + 1}`, 'h2'));
  });
  return page(title, parts.join('\n'));
}

/** Writes the page of a whole fuzz run to `path` atomically (a temporary file, then a rename). */
export function writeRunHtml(findings: readonly RunFinding[], path: string, summary: RunSummary | null = null): void {
  writeFileAtomically(path, renderRunHtml(findings, summary));
}
