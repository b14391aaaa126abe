// A trace as a Mermaid sequenceDiagram, for Markdown (GitHub renders it as it is): participants, each step as a note
// across the lanes, requests, responses and SSE events as arrows, faults as notes, the violating step shaded red.

import { type Diagram, type DiagramItem, buildDiagram } from './diagram.ts';
import type { ReadableTrace } from './readable.ts';

/**
 * Makes a text safe inside a Mermaid message or note. Mermaid reads `;` and a line end as the end of a statement,
 * `#…;` as an entity, `%%` as a comment, `:` as the start of a message and `<br>` (any tag) as markup; each such
 * character is written as Mermaid's numeric entity, which it shows as the character itself.
 */
export function escapeMermaid(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[#;:%<>"{}&`\\|]/g, (char) => `#${char.charCodeAt(0)};`);
}

const ARROWS: Readonly<Record<string, string>> = {
  request: '->>',
  response: '-->>',
  event: '-)',
  end: '--x',
};

function itemLine(item: DiagramItem, diagram: Diagram): string {
  if (item.kind === 'message') return `  ${item.from}${ARROWS[item.style] ?? '->>'}${item.to}: ${escapeMermaid(item.text)}`;
  return `  Note over ${span(item.over, diagram)}: ${escapeMermaid(item.text)}`;
}

/** `A` or `A,B` for a note over the lanes given, from the leftmost to the rightmost. */
function span(over: readonly string[], diagram: Diagram): string {
  const order = diagram.participants.map((participant) => participant.id);
  const positions = over.map((id) => order.indexOf(id)).filter((at) => at >= 0);
  if (positions.length === 0) return order[order.length - 1]!;
  const first = order[Math.min(...positions)]!;
  const last = order[Math.max(...positions)]!;
  return first === last ? first : `${first},${last}`;
}

/** The Mermaid text of a chart. */
export function renderMermaidDiagram(diagram: Diagram): string {
  const lines = ['sequenceDiagram'];
  for (const participant of diagram.participants) lines.push(`  participant ${participant.id} as ${escapeMermaid(participant.label)}`);
  const all = span(diagram.participants.map((participant) => participant.id), diagram);
  for (const step of diagram.steps) {
    const violating = diagram.violation !== null && diagram.violation.after === step.index;
    if (violating) lines.push('  rect rgb(255, 228, 228)');
    lines.push(`  Note over ${all}: ${escapeMermaid(`${step.index + 1}. ${step.action}`)}`);
    for (const item of step.items) lines.push(itemLine(item, diagram));
    if (violating) {
      lines.push(`  Note over ${all}: ${escapeMermaid(diagram.violation!.text)}`);
      lines.push('  end');
    }
  }
  if (diagram.violation !== null && diagram.steps.length === 0) lines.push(`  Note over ${all}: ${escapeMermaid(diagram.violation.text)}`);
  return `${lines.join('\n')}\n`;
}

/** A trace as Mermaid text (starts with `sequenceDiagram`, ends with a newline). */
export function renderMermaid(trace: ReadableTrace): string {
  return renderMermaidDiagram(buildDiagram(trace));
}
