// A trace as a message-sequence chart: participants, and per step the messages between them and the notes over them.
// Traces record each step's action and notes as text (the engine prints them as they happen), so this is the one
// place that reads that text back: a line it does not know becomes a note, so a new kind of step renders unchanged.

import type { ReadableStep, ReadableTrace, TraceKindName } from './readable.ts';

/** One lane of the chart. */
export interface Participant {
  /** A short identifier, letters and digits only (safe as a Mermaid participant ID and an HTML class). */
  readonly id: string;
  readonly label: string;
}

/** How an arrow or a note is drawn. */
export type ItemStyle = 'request' | 'response' | 'event' | 'end' | 'fault' | 'server' | 'info' | 'phase';

/** One row of the chart. */
export type DiagramItem =
  | { readonly kind: 'message'; readonly from: string; readonly to: string; readonly text: string; readonly style: ItemStyle; readonly tags: readonly string[] }
  | { readonly kind: 'note'; readonly over: readonly string[]; readonly text: string; readonly style: ItemStyle; readonly tags: readonly string[] };

/** One step of the chart: its header (the action) and what happened in it. */
export interface DiagramStep {
  /** 0-based. */
  readonly index: number;
  readonly action: string;
  readonly phase: ReadableStep['phase'];
  readonly items: readonly DiagramItem[];
  /** Sessions, calls, connections and clients the step involves: `session:s1`, `call:c2`, `connection:4`, `client:1`. */
  readonly tags: readonly string[];
}

/** A whole chart. */
export interface Diagram {
  readonly participants: readonly Participant[];
  readonly steps: readonly DiagramStep[];
  /** The violation note, placed after step `after` (0-based; the last step when the trace gives none). */
  readonly violation: { readonly text: string; readonly after: number; readonly tags: readonly string[] } | null;
}

/** What an interpreter turns one step into. */
interface Interpreted {
  readonly items: DiagramItem[];
}

/** Reads one kind's steps; keeps what it learnt (which connection is whose) from step to step. */
interface Interpreter {
  participants(): Participant[];
  step(step: ReadableStep): Interpreted;
}

const CALL = /\bc(\d+)\b/g;

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Tags every call named in a text (`c3`), with the tags given. */
function tagsOf(text: string, tags: readonly string[]): string[] {
  const calls = [...text.matchAll(CALL)].map((match) => `call:c${match[1]}`);
  return unique([...tags, ...calls]);
}

/** The simulator's steps: clients, the network or a proxy between them, and the server. */
function simulationInterpreter(trace: ReadableTrace): Interpreter {
  const NETWORK = 'NET';
  const SERVER = 'SRV';
  const clientOfConnection = new Map<number, number>();
  const sessionOfClient = new Map<number, string>();
  const sessionOfConnection = new Map<number, string>();
  let lastRequest: number | null = null;
  let lastRequestTags: string[] = [];
  let liveness = false;
  let clients = trace.clients;
  for (const step of trace.steps) {
    for (const match of `${step.action}\n${step.notes.join('\n')}`.matchAll(/\bclient (\d+)\b/g)) clients = Math.max(clients, Number(match[1]));
  }
  const lane = (client: number | null): string => (client === null ? NETWORK : `C${client}`);
  const connectionTags = (connection: number): string[] => {
    const client = clientOfConnection.get(connection);
    const session = sessionOfConnection.get(connection);
    return [`connection:${connection}`, ...(client === undefined ? [] : [`client:${client}`]), ...(session === undefined ? [] : [`session:${session}`])];
  };
  return {
    participants: () => [
      ...Array.from({ length: clients }, (_, index) => ({ id: `C${index + 1}`, label: `client ${index + 1}` })),
      { id: NETWORK, label: 'network / proxy' },
      { id: SERVER, label: 'server' },
    ],
    step: (step) => {
      const items: DiagramItem[] = [];
      const action = step.action;
      const actorMatch = /\bclient (\d+)\b/.exec(action);
      const actor = actorMatch === null ? null : Number(actorMatch[1]);
      const viaProxy = /\ba proxy\b/.test(action);
      if (step.phase === 'liveness' && !liveness) {
        liveness = true;
        items.push({ kind: 'note', over: [lane(1), SERVER], text: 'liveness phase: faults stopped, the server finishes its work and clients resume', style: 'phase', tags: [] });
      }
      const cut = /\bcuts connection #(\d+)/.exec(action);
      const closed = /\bcloses connection #(\d+)/.exec(action);
      if (cut !== null) {
        const connection = Number(cut[1]);
        items.push({ kind: 'note', over: [lane(clientOfConnection.get(connection) ?? actor), NETWORK], text: `✂ cut: connection #${connection} is lost in the network`, style: 'fault', tags: connectionTags(connection) });
      } else if (closed !== null) {
        const connection = Number(closed[1]);
        items.push({ kind: 'note', over: [lane(clientOfConnection.get(connection) ?? actor), SERVER], text: `the server closes connection #${connection} (the client may poll back)`, style: 'fault', tags: connectionTags(connection) });
      } else if (/\bthe server restarts\b/.test(action)) {
        items.push({ kind: 'note', over: [SERVER], text: `⟲ ${action}: every session and stream in memory is gone`, style: 'fault', tags: [] });
        clientOfConnection.clear();
      } else if (/\b(expires|loses|lost|drops|duplicates|delays|reorders)\b/.test(action)) {
        // Faults of the network or the server named by their verb; the notes that follow show what they did.
        items.push({ kind: 'note', over: [/\bserver\b/.test(action) && !/\bnetwork\b/.test(action) ? SERVER : NETWORK], text: action, style: 'fault', tags: tagsOf(action, actor === null ? [] : [`client:${actor}`]) });
      }
      const advanced = /^the server advances (c\d+)\b/.exec(action);
      if (advanced !== null && !step.notes.some((note) => note.trim().startsWith('←'))) {
        // The engine notes only frames that reach an attached connection: a message produced now reached no client.
        items.push({ kind: 'note', over: [SERVER], text: `${advanced[1]}'s next message is produced but reaches no client (no connection carries its stream)`, style: 'fault', tags: [`call:${advanced[1]}`] });
      }
      for (const raw of step.notes) {
        const note = raw.trim();
        const request = /^(POST|GET|DELETE|PUT|PATCH) #(\d+)\b/.exec(note);
        if (request !== null) {
          const connection = Number(request[2]);
          if (actor !== null) clientOfConnection.set(connection, actor);
          const session = actor === null ? undefined : sessionOfClient.get(actor);
          if (session !== undefined && !/\binitialize\b/.test(note)) sessionOfConnection.set(connection, session);
          lastRequest = connection;
          lastRequestTags = tagsOf(note, connectionTags(connection));
          items.push({ kind: 'message', from: viaProxy ? NETWORK : lane(actor), to: SERVER, text: note, style: 'request', tags: lastRequestTags });
          continue;
        }
        const response = /^→ (\d{3})\b(.*)$/.exec(note);
        if (response !== null && lastRequest !== null) {
          const connection = lastRequest;
          const minted = /Mcp-Session-Id: (\S+)/.exec(note);
          const client = clientOfConnection.get(connection) ?? actor;
          if (minted !== null && client !== null) {
            sessionOfClient.set(client, minted[1]!);
            sessionOfConnection.set(connection, minted[1]!);
            // The initialize request belongs to the session its response mints.
            lastRequestTags.push(`session:${minted[1]}`);
          }
          items.push({ kind: 'message', from: SERVER, to: lane(client), text: `#${connection} ${response[1]}${response[2]}`, style: 'response', tags: tagsOf(note, connectionTags(connection)) });
          continue;
        }
        const frame = /^← #(\d+) (.*)$/.exec(note);
        if (frame !== null) {
          const connection = Number(frame[1]);
          const ended = frame[2] === 'end of stream';
          const sessions = [...note.matchAll(/\bsession (\w+)\]/g)].map((match) => `session:${match[1]}`);
          items.push({ kind: 'message', from: SERVER, to: lane(clientOfConnection.get(connection) ?? actor), text: `#${connection} ${frame[2]}`, style: ended ? 'end' : 'event', tags: tagsOf(note, [...connectionTags(connection), ...sessions]) });
          continue;
        }
        const execution = /^⚙ (.*)$/.exec(note);
        if (execution !== null) {
          const session = /\bsession (\w+)\)/.exec(note);
          items.push({ kind: 'note', over: [SERVER], text: `⚙ ${execution[1]}`, style: 'server', tags: tagsOf(note, session === null ? [] : [`session:${session[1]}`]) });
          continue;
        }
        // A note this reader does not know: shown as it is, over the network (it is neither side's message).
        items.push({ kind: 'note', over: [NETWORK], text: note, style: 'info', tags: tagsOf(note, []) });
      }
      return { items };
    },
  };
}

/** check-store's contract runs: the sessions the checker drove, and the store itself. */
function storeContractInterpreter(trace: ReadableTrace): Interpreter {
  const STORE = 'STORE';
  const SESSION = /\bsession ([A-Z]\d*)\b/g;
  const sessions: string[] = [];
  for (const step of trace.steps) {
    for (const match of `${step.action}\n${step.notes.join('\n')}`.matchAll(SESSION)) if (!sessions.includes(match[1]!)) sessions.push(match[1]!);
  }
  const replays = new Map<number, string>();
  const lane = (session: string | null | undefined): string => (session === null || session === undefined || !sessions.includes(session) ? STORE : `S${session}`);
  return {
    participants: () => [...sessions.map((session) => ({ id: `S${session}`, label: `session ${session}` })), { id: STORE, label: 'event store' }],
    step: (step) => {
      const items: DiagramItem[] = [];
      const actor = /\bsession ([A-Z]\d*)\b/.exec(step.action)?.[1] ?? null;
      if (/\brestart|incarnation \d+ ends\b/.test(step.action)) items.push({ kind: 'note', over: [STORE], text: `⟲ ${step.action}`, style: 'fault', tags: [] });
      for (const raw of step.notes) {
        const note = raw.trim();
        const stored = /^storeEvent\(.*, (([A-Z]\d*)\.\S+?)\) started$/.exec(note);
        if (stored !== null) {
          items.push({ kind: 'message', from: lane(stored[2]), to: STORE, text: note, style: 'request', tags: [`session:${stored[2]}`, `stream:${stored[1]!.replace(/#\d+$/, '')}`] });
          continue;
        }
        const settled = /^storeEvent of (([A-Z]\d*)\.\S+) (resolved|rejected)\b/.exec(note);
        if (settled !== null) {
          items.push({ kind: 'message', from: STORE, to: lane(settled[2]), text: note, style: 'response', tags: [`session:${settled[2]}`, `stream:${settled[1]!.replace(/#\d+$/, '')}`] });
          continue;
        }
        const replay = /^replay #(\d+) of session ([A-Z]\d*)\b/.exec(note);
        if (replay !== null) {
          replays.set(Number(replay[1]), replay[2]!);
          items.push({ kind: 'message', from: lane(replay[2]), to: STORE, text: note, style: 'request', tags: [`session:${replay[2]}`, `replay:${replay[1]}`] });
          continue;
        }
        const answer = /^replay #(\d+) (sends|returned|threw|rejected|resolved)\b/.exec(note);
        if (answer !== null) {
          const session = replays.get(Number(answer[1]));
          items.push({ kind: 'message', from: STORE, to: lane(session), text: note, style: answer[2] === 'sends' ? 'event' : 'end', tags: [`replay:${answer[1]}`, ...(session === undefined ? [] : [`session:${session}`])] });
          continue;
        }
        const opened = /^session ([A-Z]\d*) = /.exec(note);
        if (opened !== null) {
          items.push({ kind: 'note', over: [lane(opened[1])], text: note, style: 'info', tags: [`session:${opened[1]}`] });
          continue;
        }
        items.push({ kind: 'note', over: [lane(actor)], text: note, style: 'info', tags: actor === null ? [] : [`session:${actor}`] });
      }
      return { items };
    },
  };
}

const INTERPRETERS: Readonly<Record<TraceKindName, (trace: ReadableTrace) => Interpreter>> = {
  simulation: simulationInterpreter,
  'store-contract': storeContractInterpreter,
};

/** Builds the chart of a trace. Pure: the same trace gives the same chart. */
export function buildDiagram(trace: ReadableTrace): Diagram {
  const interpreter = INTERPRETERS[trace.kind](trace);
  const steps: DiagramStep[] = trace.steps.map((step, index) => {
    const { items } = interpreter.step(step);
    const actor = /\b(client|session) (\w+)\b/.exec(step.action);
    const own = actor === null ? [] : [actor[1] === 'client' ? `client:${actor[2]}` : `session:${actor[2]}`];
    return { index, action: step.action, phase: step.phase, items, tags: unique([...own, ...tagsOf(step.action, []), ...items.flatMap((item) => item.tags)]) };
  });
  const verdict = trace.verdict;
  const violation =
    verdict === null
      ? null
      : {
          text: `✗ ${verdict.property}${verdict.step === null && trace.kind === 'simulation' ? ' (seen in the liveness phase)' : ''}: ${verdict.explanation}`,
          after: verdict.step ?? Math.max(0, steps.length - 1),
          tags: tagsOf(verdict.explanation, [...verdict.explanation.matchAll(/\bsession (\w+)\b/g)].map((match) => `session:${match[1]}`)),
        };
  return { participants: interpreter.participants(), steps, violation };
}

/** Every tag of a chart, in a stable order: sessions, calls, connections, then the rest, each sorted naturally. */
export function diagramTags(diagram: Diagram): string[] {
  const all = unique(diagram.steps.flatMap((step) => step.tags));
  const order = ['session', 'call', 'connection', 'client', 'stream', 'replay'];
  const rank = (tag: string) => {
    const at = order.indexOf(tag.slice(0, tag.indexOf(':')));
    return at < 0 ? order.length : at;
  };
  return all.sort((left, right) => rank(left) - rank(right) || left.localeCompare(right, 'en', { numeric: true }));
}

