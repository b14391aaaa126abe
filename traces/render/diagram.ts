// A trace as a message-sequence chart: participants, and per step the messages between them and the notes over them.
// Each step's action and observations are records (sim/levels/records.ts): lanes, arrows and tags come from their
// fields, the words from the level's vocabulary; a record it does not know becomes a note, so a new kind renders.

import { type StepRecord, recordTags } from '../../sim/levels/records.ts';
import { endText, frameText, responseText } from '../../sim/levels/server-records.ts';
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

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Actions whose requests a proxy (the network lane) sends rather than the client. */
const PROXY_ACTIONS: ReadonlySet<string> = new Set(['callStale', 'resumeForeign', 'resend', 'headerless', 'callProxied']);

/** A number field of a record, or null. */
function numberField(record: StepRecord, field: string): number | null {
  const value = record[field];
  return typeof value === 'number' ? value : null;
}

/** A string field of a record, or null. */
function stringField(record: StepRecord, field: string): string | null {
  const value = record[field];
  return typeof value === 'string' ? value : null;
}

/**
 * The server and client levels' steps: clients, the network or a proxy between them, and the server. Every arrow and
 * note comes from a record's fields; a record of a kind this reader does not know, and a text record of a trace
 * written before steps were records, is a note over the network, shown as its line.
 */
function simulationInterpreter(trace: ReadableTrace): Interpreter {
  const NETWORK = 'NET';
  const SERVER = 'SRV';
  const clientOfConnection = new Map<number, number>();
  const sessionOfClient = new Map<number, string>();
  const sessionOfConnection = new Map<number, string>();
  let lastRequestTags: string[] = [];
  let liveness = false;
  let clients = trace.clients;
  for (const step of trace.steps) {
    for (const record of [step.actionRecord, ...step.observations]) clients = Math.max(clients, numberField(record, 'client') ?? 0);
  }
  const lane = (client: number | null | undefined): string => (client === null || client === undefined ? NETWORK : `C${client}`);
  const connectionTags = (connection: number): string[] => {
    const client = clientOfConnection.get(connection);
    const session = sessionOfConnection.get(connection);
    return [`connection:${connection}`, ...(client === undefined ? [] : [`client:${client}`]), ...(session === undefined ? [] : [`session:${session}`])];
  };
  const fault = (over: string[], text: string, tags: readonly string[]): DiagramItem => ({ kind: 'note', over, text, style: 'fault', tags: unique([...tags]) });
  return {
    participants: () => [
      ...Array.from({ length: clients }, (_, index) => ({ id: `C${index + 1}`, label: `client ${index + 1}` })),
      { id: NETWORK, label: 'network / proxy' },
      { id: SERVER, label: 'server' },
    ],
    step: (step) => {
      const items: DiagramItem[] = [];
      const action = step.actionRecord;
      const actor = numberField(action, 'client');
      const viaProxy = PROXY_ACTIONS.has(action.kind) || (action.kind === 'resendInFlight' && action['reuse'] !== true);
      if (step.phase === 'liveness' && !liveness) {
        liveness = true;
        items.push({ kind: 'note', over: [lane(1), SERVER], text: 'liveness phase: faults stopped, the server finishes its work and clients resume', style: 'phase', tags: [] });
      }
      const connection = numberField(action, 'connection');
      const owner = connection === null ? actor : (clientOfConnection.get(connection) ?? actor);
      switch (action.kind) {
        case 'cut':
          items.push(fault([lane(owner), NETWORK], `✂ cut: connection #${connection} is lost in the network`, connectionTags(connection!)));
          break;
        case 'serverClose':
          items.push(fault([lane(owner), SERVER], `the server closes connection #${connection} (the client may poll back)`, connectionTags(connection!)));
          break;
        case 'restart':
          items.push(fault([SERVER], `⟲ ${step.action}: every session and stream in memory is gone`, []));
          clientOfConnection.clear();
          break;
        case 'crashNode':
        case 'expire':
        case 'abortTool':
          items.push(fault([SERVER], step.action, recordTags(action)));
          break;
        case 'loseTail':
          items.push(fault([NETWORK], step.action, [...recordTags(action), ...connectionTags(connection!)]));
          break;
        default:
          break;
      }
      // A message the server produced that reached no attached connection: the engine records no frame for it. (At the
      // client level the network holds what the server writes, and a later step delivers it.)
      if (action.kind === 'advance' && trace.level !== 'client' && !step.observations.some((record) => record.kind === 'frame')) {
        const call = stringField(action, 'call');
        items.push(fault([SERVER], `${call}'s next message is produced but reaches no client (no connection carries its stream)`, [`call:${call}`]));
      }
      step.observations.forEach((record, index) => {
        const line = step.notes[index]!.trim();
        const at = numberField(record, 'connection');
        const to = () => lane(at === null ? actor : (clientOfConnection.get(at) ?? numberField(record, 'client') ?? actor));
        const tags = () => unique([...recordTags(record), ...(at === null ? [] : connectionTags(at))]);
        switch (record.kind) {
          case 'request': {
            const client = numberField(record, 'client') ?? actor;
            if (client !== null && at !== null) clientOfConnection.set(at, client);
            const session = stringField(record, 'session') ?? (client === null ? undefined : sessionOfClient.get(client));
            if (at !== null && session !== undefined && session !== null && record['form'] !== 'initialize') sessionOfConnection.set(at, session);
            const inFlightFor = stringField(record, 'inFlightFor');
            lastRequestTags = unique([...tags(), ...(inFlightFor === null ? [] : [`call:${inFlightFor}`])]);
            items.push({ kind: 'message', from: viaProxy ? NETWORK : lane(client), to: SERVER, text: line, style: 'request', tags: lastRequestTags });
            return;
          }
          case 'response': {
            const minted = stringField(record, 'session');
            const client = at === null ? actor : (clientOfConnection.get(at) ?? numberField(record, 'client') ?? actor);
            if (minted !== null && client !== null && at !== null) {
              sessionOfClient.set(client, minted);
              sessionOfConnection.set(at, minted);
              // The initialize request belongs to the session its response mints.
              lastRequestTags.push(`session:${minted}`);
            }
            items.push({ kind: 'message', from: SERVER, to: lane(client), text: `#${at} ${responseText(record)}`, style: 'response', tags: tags() });
            return;
          }
          case 'frame':
            items.push({ kind: 'message', from: SERVER, to: to(), text: `#${at} ${frameText(record)}`, style: 'event', tags: tags() });
            return;
          case 'end':
            items.push({ kind: 'message', from: SERVER, to: to(), text: `#${at} ${endText(record)}`, style: record['closing'] === true ? 'event' : 'end', tags: tags() });
            return;
          case 'frameLost':
          case 'endLost':
          case 'breaks':
          // The client level's: a request the network lost, and frames a cut lost on the way.
          case 'requestLost':
          case 'framesLost':
            items.push(fault([to(), NETWORK], line, tags()));
            return;
          case 'execution':
          case 'cancelled':
          case 'incarnation':
            items.push({ kind: 'note', over: [SERVER], text: line, style: 'server', tags: tags() });
            return;
          case 'settled':
            // The client level's: how the application's call settled, over its client.
            items.push({ kind: 'note', over: [lane(numberField(record, 'client') ?? actor)], text: line, style: 'info', tags: tags() });
            return;
          case 'stillOpen':
            items.push({ kind: 'note', over: [SERVER], text: line, style: 'info', tags: tags() });
            return;
          default:
            // A text record, or a kind this reader does not know: shown as its line, over the network.
            items.push({ kind: 'note', over: [NETWORK], text: line, style: 'info', tags: tags() });
        }
      });
      return { items };
    },
  };
}

/** The store level's records that are calls to the store, and the store's answers: the style each is drawn in. */
const STORE_CALLS: Readonly<Record<string, ItemStyle>> = { storeStarted: 'request', replayStarted: 'request' };
const STORE_ANSWERS: Readonly<Record<string, ItemStyle>> = { storeResolved: 'response', storeRejected: 'response', lookupResolved: 'response', lookupRejected: 'response', send: 'event', replayReturned: 'end', replayThrew: 'end' };

/**
 * The store level's steps (check-store's contract runs): a lane per session the checker drove, and the store itself.
 * Every arrow and note comes from a record's fields (sim/levels/store-records.ts): a call from its session's lane to
 * the store, an answer back; a record of a kind this reader does not know, and a text record of a trace written before
 * steps were records, is a note over the session its action names (or the store), shown as its line.
 */
function storeContractInterpreter(trace: ReadableTrace): Interpreter {
  const STORE = 'STORE';
  const sessions: string[] = [];
  for (const step of trace.steps) {
    for (const record of [step.actionRecord, ...step.observations]) {
      const session = stringField(record, 'session');
      if (session !== null && !sessions.includes(session)) sessions.push(session);
    }
  }
  const lane = (session: string | null): string => (session === null || !sessions.includes(session) ? STORE : `S${session}`);
  return {
    participants: () => [...sessions.map((session) => ({ id: `S${session}`, label: `session ${session}` })), { id: STORE, label: 'event store' }],
    step: (step) => {
      const items: DiagramItem[] = [];
      const action = step.actionRecord;
      const actor = stringField(action, 'session');
      if (action.kind === 'restart') items.push({ kind: 'note', over: [STORE], text: `⟲ ${step.action}`, style: 'fault', tags: [] });
      step.observations.forEach((record, index) => {
        const line = step.notes[index]!.trim();
        const session = stringField(record, 'session');
        const tags = recordTags(record);
        const call = STORE_CALLS[record.kind];
        const answer = STORE_ANSWERS[record.kind];
        if (call !== undefined) items.push({ kind: 'message', from: lane(session), to: STORE, text: line, style: call, tags });
        else if (answer !== undefined) items.push({ kind: 'message', from: STORE, to: lane(session), text: line, style: answer, tags });
        else if (record.kind === 'timeout') items.push({ kind: 'note', over: [STORE], text: line, style: 'fault', tags });
        else if (record.kind === 'factory' && session === null) items.push({ kind: 'note', over: [STORE], text: line, style: 'info', tags });
        // The rest (sessions and streams opened, refusals, a text record, a kind this reader does not know) over its session.
        else items.push({ kind: 'note', over: [lane(session ?? actor)], text: line, style: 'info', tags: unique([...tags, ...(session === null && actor !== null ? [`session:${actor}`] : [])]) });
      });
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
    return { index, action: step.action, phase: step.phase, items, tags: unique([...recordTags(step.actionRecord), ...items.flatMap((item) => item.tags)]) };
  });
  const verdict = trace.verdict;
  const violation =
    verdict === null
      ? null
      : {
          text: `✗ ${verdict.property}${verdict.step === null && trace.kind === 'simulation' ? ' (seen in the liveness phase)' : ''}: ${verdict.explanation}`,
          after: verdict.step ?? Math.max(0, steps.length - 1),
          // What the violation involves is what its step involved (the explanation is prose, never read back).
          tags: verdict.step === null ? [] : (steps[verdict.step]?.tags ?? []),
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

