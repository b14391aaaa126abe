// `resumecheck render FILE --format text|mermaid|html [--out FILE]`: any trace resumecheck writes (fuzz, replay,
// script, check-store's contract and end-to-end phases), as text, as a Mermaid sequence diagram, or as a page.

import { renderHtml } from '../traces/render/html.ts';
import { writeFileAtomically } from '../traces/store.ts';
import { renderMermaid } from '../traces/render/mermaid.ts';
import { readReadableTrace } from '../traces/render/readable.ts';
import { renderText } from '../traces/render/text.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { checkOutFile } from './output-paths.ts';
import { UsageError } from './usage-error.ts';

/** The formats `render` writes. */
export const RENDER_FORMATS = ['text', 'mermaid', 'html'] as const;
type RenderFormat = (typeof RENDER_FORMATS)[number];

/** Runs `resumecheck render`: prints the trace in the format asked (or writes it to --out atomically); exit 0. */
export function runRender({ values, positionals }: ParsedArgs, io: Io): number {
  const file = positionals[0];
  if (file === undefined) throw new UsageError('render needs a trace FILE');
  const format = (values.format ?? 'text') as string;
  if (!(RENDER_FORMATS as readonly string[]).includes(format)) throw new UsageError(`unknown format ${JSON.stringify(format)}; --format takes ${RENDER_FORMATS.join(', ')}`);
  const out = values.out as string | undefined;
  if (out !== undefined) checkOutFile(out, '--out');
  const trace = readReadableTrace(file);
  const text = renderAs(format as RenderFormat, trace);
  if (out === undefined) {
    io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
    return 0;
  }
  try {
    writeFileAtomically(out, text);
  } catch (error) {
    throw new UsageError(`${out}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? 'unwritable'})`);
  }
  io.out(`${format} written: ${out}`);
  return 0;
}

function renderAs(format: RenderFormat, trace: ReturnType<typeof readReadableTrace>): string {
  switch (format) {
    case 'text':
      return `${renderText(trace, { replay: true }).join('\n')}\n`;
    case 'mermaid':
      return renderMermaid(trace);
    case 'html':
      return renderHtml(trace);
  }
}

