// `resumecheck render FILE --format text|mermaid|html [--out FILE]`: any trace resumecheck writes (fuzz, replay,
// script, check-store's contract and end-to-end phases), as text, as a Mermaid sequence diagram, or as a page.

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderHtml, writeFileAtomically } from '../traces/render/html.ts';
import { renderMermaid } from '../traces/render/mermaid.ts';
import { readReadableTrace } from '../traces/render/readable.ts';
import { renderText } from '../traces/render/text.ts';
import { UsageError } from './usage-error.ts';

/** Where a command prints. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** The formats `render` writes. */
export const RENDER_FORMATS = ['text', 'mermaid', 'html'] as const;
type RenderFormat = (typeof RENDER_FORMATS)[number];

/** The help lines of the command. */
export const RENDER_HELP = '  resumecheck render FILE [--format text|mermaid|html] [--out FILE]   (any trace: fuzz, script, check-store)';

/** Renders a trace file; returns the exit code (0), or throws UsageError / TraceFormatError (bad input: exit 2). */
export function commandRender(args: string[], io: CommandIo): number {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { format: { type: 'string' }, out: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const [file, extra] = parsed.positionals;
  if (file === undefined) throw new UsageError('render needs a trace FILE');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  const format = (parsed.values.format ?? 'text') as string;
  if (!(RENDER_FORMATS as readonly string[]).includes(format)) throw new UsageError(`unknown format ${JSON.stringify(format)}; --format takes ${RENDER_FORMATS.join(', ')}`);
  const trace = readReadableTrace(file);
  const text = renderAs(format as RenderFormat, trace);
  const out = parsed.values.out;
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

/** Checks a `--html FILE` before a long run: its folder must exist, so the page can be written when the run ends. */
export function runHtmlPath(path: string): string {
  if (path === '' || !existsSync(dirname(resolve(path)))) throw new UsageError(`--html ${JSON.stringify(path)}: the folder for the page does not exist`);
  return path;
}
