// A chart drawn as inline SVG by resumecheck itself (no library, no font or asset from outside): lanes, one row per
// arrow or note, each row tagged with its step and the sessions, calls and connections it involves.

import type { Diagram, DiagramItem } from './diagram.ts';

/** Escapes text for XML and HTML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const MARGIN = 16;
const LANE_GAP = 230;
const HEADER = 44;
const ROW = 26;
/** Width of a character of the 12px sans-serif text, roughly: used only to shorten labels that would overflow. */
const CHAR_WIDTH = 6.4;
const NOTE_OVERHANG = 95;

function shorten(text: string, width: number): string {
  const max = Math.max(8, Math.floor(width / CHAR_WIDTH));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Layout and drawing options. */
export interface SvgOptions {
  /** Prefix of element IDs, so several charts can share one page. */
  readonly idPrefix?: string;
}

/** The chart as one `<svg>` element. Deterministic: coordinates are whole numbers computed from the chart alone. */
export function renderSvg(diagram: Diagram, options: SvgOptions = {}): string {
  const prefix = options.idPrefix ?? 'rc';
  const lanes = diagram.participants.map((participant, index) => ({ ...participant, x: MARGIN + NOTE_OVERHANG + index * LANE_GAP }));
  const laneX = new Map(lanes.map((lane) => [lane.id, lane.x]));
  const x = (id: string) => laneX.get(id) ?? lanes[lanes.length - 1]!.x;
  const width = MARGIN * 2 + NOTE_OVERHANG * 2 + Math.max(0, lanes.length - 1) * LANE_GAP;
  const left = MARGIN;
  const right = width - MARGIN;
  const rows: string[] = [];
  let y = HEADER + 10;
  const row = (step: number, tags: readonly string[], classes: string, body: string, title: string) => {
    rows.push(`<g class="row ${classes}" data-step="${step}" data-tags="${escapeXml(tags.join(' '))}"><title>${escapeXml(title)}</title>${body}</g>`);
    y += ROW;
  };
  const drawItem = (step: number, item: DiagramItem) => {
    if (item.kind === 'message') {
      const x1 = x(item.from);
      const x2 = x(item.to);
      const direction = x2 >= x1 ? 1 : -1;
      const labelX = Math.min(x1, x2) + 6;
      const dashed = item.style === 'response' || item.style === 'end' ? ' stroke-dasharray="5 3"' : '';
      const marker = item.style === 'end' ? 'cross' : item.style === 'event' ? 'open' : 'arrow';
      const body =
        `<text x="${labelX}" y="${y + 9}" class="label">${escapeXml(shorten(item.text, Math.abs(x2 - x1) + NOTE_OVERHANG - 12))}</text>` +
        `<line x1="${x1}" y1="${y + 15}" x2="${x2 - direction * 2}" y2="${y + 15}" class="arrow ${item.style}"${dashed} marker-end="url(#${prefix}-${marker})"/>`;
      row(step, item.tags, `message ${item.style}`, body, item.text);
      return;
    }
    const xs = item.over.map(x);
    const x1 = Math.max(left, Math.min(...xs) - NOTE_OVERHANG);
    const x2 = Math.min(right, Math.max(...xs) + NOTE_OVERHANG);
    const body = `<rect x="${x1}" y="${y + 2}" width="${x2 - x1}" height="${ROW - 5}" rx="3" class="note ${item.style}"/><text x="${x1 + 6}" y="${y + 17}" class="label">${escapeXml(shorten(item.text, x2 - x1 - 12))}</text>`;
    row(step, item.tags, `note ${item.style}`, body, item.text);
  };
  for (const step of diagram.steps) {
    const text = `${step.index + 1}. ${step.action}${step.phase === 'liveness' ? ' (liveness phase)' : ''}`;
    row(step.index, step.tags, 'step-head', `<rect x="${left}" y="${y + 2}" width="${right - left}" height="${ROW - 4}" rx="3" class="note step"/><text x="${left + 8}" y="${y + 18}" class="label step">${escapeXml(shorten(text, right - left - 16))}</text>`, text);
    for (const item of step.items) drawItem(step.index, item);
    if (diagram.violation !== null && diagram.violation.after === step.index) {
      const violation = diagram.violation;
      row(step.index, violation.tags, 'violation', `<rect x="${left}" y="${y + 2}" width="${right - left}" height="${ROW - 4}" rx="3" class="note violation"/><text x="${left + 8}" y="${y + 18}" class="label violation">${escapeXml(shorten(violation.text, right - left - 16))}</text>`, violation.text);
    }
  }
  const height = y + MARGIN;
  const heads = lanes
    .map((lane) => `<g class="lane" data-lane="${lane.id}"><rect x="${lane.x - 70}" y="${MARGIN}" width="140" height="24" rx="4" class="head"/><text x="${lane.x}" y="${MARGIN + 16}" class="head" text-anchor="middle">${escapeXml(lane.label)}</text><line x1="${lane.x}" y1="${MARGIN + 24}" x2="${lane.x}" y2="${height - MARGIN}" class="lifeline"/></g>`)
    .join('');
  const markers =
    `<marker id="${prefix}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head-arrow"/></marker>` +
    `<marker id="${prefix}-open" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10" fill="none" class="head-open"/></marker>` +
    `<marker id="${prefix}-cross" viewBox="0 0 10 10" refX="5" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9"><path d="M1,1 L9,9 M9,1 L1,9" class="head-cross"/></marker>`;
  return `<svg class="sequence" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="sequence diagram"><defs>${markers}</defs>${heads}${rows.join('')}</svg>`;
}
