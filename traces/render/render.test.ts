// Every trace kept under traces/ renders in the three formats: each step and the violation are in every output, the
// outputs are byte-identical from run to run, the Mermaid text is a sequenceDiagram, and the page refers to nothing
// outside itself. A trace kind the renderers cannot read fails here, since every file is tried.

import { SEVERITY_LABELS } from '../../properties/severity.ts';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDiagram } from './diagram.ts';
import { renderHtml } from './html.ts';
import { renderMermaid } from './mermaid.ts';
import { type ReadableTrace, readReadableTrace } from './readable.ts';
import { renderText } from './text.ts';
import { ROOT, keptTraceFiles } from './trace-files.ts';

/** References a page could load or follow out of itself. */
const EXTERNAL = [/\b(?:src|href|action|poster|srcset)\s*=\s*["']?(?!#)/i, /url\(\s*["']?(?!#)/i, /@import\b/i, /<link\b/i, /<iframe\b/i, /<object\b/i, /<embed\b/i, /\bhttps?:\/\//i, /\/\/[a-z0-9-]+\.[a-z]{2,}/i, /\bfetch\(|XMLHttpRequest|WebSocket|EventSource/];

const files = keptTraceFiles();
const cwd = process.cwd();

describe('render: every trace under traces/, in every format', () => {
  it('finds the simulator traces of the corpus and a check-store contract trace', () => {
    const kinds = new Set(files.map((file) => readReadableTrace(join(ROOT, file)).kind));
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect([...kinds].sort()).toEqual(['simulation', 'store-contract']);
  });

  for (const file of files) {
    describe(file, () => {
      const path = join(ROOT, file);
      const shown = relative(cwd, path) || path;
      const trace: ReadableTrace = readReadableTrace(shown);

      it('text: every step numbered, the verdict, the replay command; the same bytes twice', () => {
        const text = renderText(trace, { replay: true });
        expect(renderText(readReadableTrace(shown), { replay: true })).toEqual(text);
        trace.steps.forEach((step, index) => expect(text.filter((line) => line.startsWith(`${String(index + 1).padStart(3)}. ${step.action}`))).toHaveLength(1));
        // The headline carries the severity's label (properties/severity.ts) and, below a failure, the flag that makes it fail.
        if (trace.verdict !== null && trace.verdict.note !== true) {
          const severity = trace.verdict.severity ?? 'failure';
          const weight = severity === 'failure' ? ')' : `; ${severity}: fails only with ${severity === 'warning' ? '--strict' : '--strict=advice'})`;
          expect(text[0]).toBe(`${SEVERITY_LABELS[severity].slice(0, 1)} ${trace.verdict.property} violated by ${trace.target} (${trace.verdict.kind}${weight}`);
        }
        expect(text.at(-1)).toBe(`replay it:     ${trace.replay}`);
      });

      it('mermaid: a sequenceDiagram with a note per step, the violation inside the shaded violating step', () => {
        const mermaid = renderMermaid(trace);
        expect(renderMermaid(readReadableTrace(shown))).toBe(mermaid);
        expect(mermaid.startsWith('sequenceDiagram\n')).toBe(true);
        const lines = mermaid.split('\n');
        // A step's head spans the lanes (one lane: a store-level trace of text records, whose sessions no record names).
        const heads = trace.steps.map((_, index) => lines.findIndex((line) => new RegExp(`^  Note over \\w+(,\\w+)?: ${index + 1}\\. `).test(line)));
        expect(heads.every((at) => at > 0)).toBe(true);
        expect(heads).toEqual([...heads].sort((left, right) => left - right));
        // No statement may end early: every line is a participant, an arrow, a note, a rect, or its end.
        for (const line of lines.slice(1, -1)) {
          expect(line.replace(/#\w+;/g, '')).toMatch(/^  (participant \w+ as [^;#:%<>]+|\w+(->>|-->>|-\)|--x)\w+: [^;#:%<>]*|Note over \w+(,\w+)?: [^;#:%<>]*|rect rgb\(255, 228, 228\)|end)$/);
        }
        if (trace.verdict !== null) {
          const diagram = buildDiagram(trace);
          const after = diagram.violation!.after;
          const note = lines.findIndex((line) => line.includes(`: ✗ ${trace.verdict!.property}`));
          expect(note).toBeGreaterThan(heads[after]!);
          if (after + 1 < heads.length) expect(note).toBeLessThan(heads[after + 1]!);
          expect(lines[heads[after]! - 1]).toBe('  rect rgb(255, 228, 228)');
          expect(lines[note + 1]).toBe('  end');
        }
      });

      it('html: one self-contained page with every step, the verdict, the property and the replay command; the same bytes twice', () => {
        const html = renderHtml(trace);
        expect(renderHtml(readReadableTrace(shown))).toBe(html);
        expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
        for (const pattern of EXTERNAL) expect(html, `matches ${pattern}`).not.toMatch(pattern);
        trace.steps.forEach((_, index) => {
          expect(html).toContain(`id="trace-step-${index + 1}"`);
          expect(html).toContain(`class="row step-head" data-step="${index}"`);
        });
        expect(html).toContain(trace.replay.replaceAll("'", '&#39;'));
        if (trace.verdict !== null) {
          expect(html).toContain('id="trace-violation"');
          expect(html).toContain('class="row violation"');
          expect(html).toContain(`<dd class="statement">`);
          expect(trace.verdict.statement.length).toBeGreaterThan(0);
          expect(trace.verdict.source.length).toBeGreaterThan(0);
        }
      });
    });
  }
});
