// The server level's vocabulary: the records its steps hold (sim/actions.ts and sim/levels/server-level.ts make
// them), and how each reads as the line a trace prints. A record holds what the renderers lay out (client, connection, call,
// session) as data; the text is made from it here and nowhere else.

import { type StepRecord, type Vocabulary, levelVocabulary } from './records.ts';

/** A frame as a record's fields: its event ID and what its message is (from the message's provenance). */
export interface FrameFields {
  readonly eventId: string | null;
  /**
   * `reset` (the fields hold its params as JSON), `priming` (no data), `retry` (no data, a retry field), `notification`
   * (a standalone one, `k`), `progress` (`k` of `call`), `result` (of `call`), or `message` (any other: `data` holds its
   * JSON, cut to 80 characters).
   */
  readonly message: 'reset' | 'priming' | 'retry' | 'notification' | 'progress' | 'result' | 'message';
  readonly retryMs?: number;
  readonly params?: string;
  readonly data?: string;
  readonly k?: number;
  readonly call?: string | null;
  /** The incarnation and session the message was produced in (its provenance). */
  readonly epoch?: number;
  readonly session?: string;
}

/** How a request reads, by what the client meant by it. */
export type RequestForm =
  | 'initialize'
  | 'initialized'
  | 'call'
  | 'resume'
  | 'standalone'
  | 'resend'
  | 'resendInFlight'
  | 'resendEchoed'
  | 'reuse'
  | 'reissue'
  | 'reissueLegacy'
  | 'delete'
  | 'headerless'
  | 'probe'
  | 'callModern'
  | 'resendModern'
  | 'reuseModern';



/** A frame's fields as its line shows them (`id 3 result of c1 [epoch 1, session s1]`). */
export function frameText(record: StepRecord | FrameFields): string {
  const frame = record as unknown as FrameFields;
  if (frame.message === 'reset') return `reset ${frame.params ?? '{}'}`;
  const id = frame.eventId === null ? '' : `id ${frame.eventId} `;
  switch (frame.message) {
    case 'priming':
      return `${id}priming event`.trim();
    case 'retry':
      return `${id}retry ${frame.retryMs} ms`.trim();
    case 'message':
      return `${id}${frame.data}`;
    default: {
      const what = frame.message === 'notification' ? `notification #${frame.k}` : frame.message === 'result' ? `result of ${frame.call}` : `progress #${frame.k} of ${frame.call}`;
      return `${id}${what} [epoch ${frame.epoch}, session ${frame.session}]`;
    }
  }
}

/**
 * A response head as its line shows it, after the arrow (`200 SSE Mcp-Session-Id: s1 (node 2)`); a record that holds
 * its JSON body (the client level's `body`, cut to 80 characters; the server level records none) shows it last.
 */
export function responseText(r: StepRecord): string {
  const body = typeof r['body'] === 'string' ? ` ${r['body']}` : '';
  return `${r['status']}${r['sse'] === true ? ' SSE' : ''}${typeof r['session'] === 'string' ? ` Mcp-Session-Id: ${r['session']}` : ''}${typeof r['node'] === 'number' ? ` (node ${r['node']})` : ''}${body}`;
}

/** The end of a response as its line shows it, after the connection. */
export function endText(r: StepRecord): string {
  return r['closing'] === true ? 'closed (the stream goes on)' : 'end of stream';
}

/** The MCP-Protocol-Version a request record names (the version fault's), as a suffix of its line; '' when none. */
function versionText(r: StepRecord): string {
  return r['protocolVersion'] === undefined ? '' : ` MCP-Protocol-Version: ${r['protocolVersion']}`;
}

function requestText(r: StepRecord): string {
  const n = `#${r['connection']}`;
  const revision = r['revision'];
  switch (r['form'] as RequestForm) {
    case 'initialize':
      return `POST ${n} initialize (request ${r['requestId']}${revision === undefined ? '' : `, ${revision}`})`;
    case 'initialized':
      return `POST ${n} notifications/initialized`;
    case 'call':
      return `POST ${n} tools/call ${r['tool']} as ${r['call']} (request ${r['requestId']})${r['lastEventId'] === undefined ? '' : ` with a stale Last-Event-ID: ${r['lastEventId']}`}`;
    case 'resume':
      return `GET ${n} Last-Event-ID: ${r['lastEventId']}`;
    case 'standalone':
      return `GET ${n} (standalone stream)${versionText(r)}`;
    case 'resend':
      return `POST ${n} re-sends ${r['call']}'s tools/call (request ${r['requestId']})`;
    case 'resendInFlight':
      return `POST ${n} re-sends ${r['call']}'s tools/call (request ${r['requestId']}) while it is in flight`;
    case 'resendEchoed':
      return `POST ${n} sends ${r['call']}'s echoed tools/call again (request ${r['requestId']})`;
    case 'reuse':
      return `POST ${n} tools/call ${r['tool']} as ${r['call']} (request ${r['requestId']}, still in flight for ${r['inFlightFor']})`;
    case 'reissue':
      return `POST ${n} tools/call ${r['tool']} as ${r['call']} again (request ${r['requestId']}; request ${r['requestLost']} was lost)`;
    case 'reissueLegacy': {
      const why = r['sessionLost'] === null ? 'its stream ended in a reset' : `session ${r['sessionLost']} was lost`;
      return `POST ${n} tools/call ${r['tool']} as ${r['call']} again (request ${r['requestId']}; ${why} under request ${r['requestLost']})`;
    }
    case 'delete':
      return `DELETE ${n}${versionText(r)}`;
    case 'headerless':
      return `GET ${n} without Mcp-Session-Id`;
    case 'probe':
      return `${r['method']} ${n} (${revision}, no Mcp-Session-Id)`;
    case 'callModern': {
      const headers = `${r['session'] === null ? '' : ` with Mcp-Session-Id: ${r['session']}`}${r['lastEventId'] === undefined ? '' : ` with Last-Event-ID: ${r['lastEventId']}`}`;
      return `POST ${n} tools/call ${r['tool']} as ${r['call']} (request ${r['requestId']}, ${revision})${headers}`;
    }
    case 'resendModern':
      return `POST ${n} re-sends ${r['call']}'s tools/call (request ${r['requestId']}, ${revision}, still in flight for ${r['inFlightFor']})`;
    case 'reuseModern':
      return `POST ${n} tools/call ${r['tool']} as ${r['call']} (request ${r['requestId']}, ${revision}, still in flight for ${r['inFlightFor']})`;
    default:
      return `${r['method']} ${n}`;
  }
}

/** What a proxy attaches to a proxied 2026-07-28 call, by its `attaches` field. */
const ATTACHED: Readonly<Record<string, string>> = {
  session: 'Mcp-Session-Id',
  'session and cursor': 'Mcp-Session-Id and latest Last-Event-ID',
  cursor: 'latest Last-Event-ID',
};

function actionText(r: StepRecord): string {
  const client = (field = 'client') => `client ${r[field]}`;
  const stream = () => (r['call'] === null ? 'its standalone stream' : `the stream of ${r['call']}`);
  switch (r['kind']) {
    case 'initialize':
      return `${client()} initializes`;
    case 'call':
      return `${client()} calls ${r['tool']}`;
    case 'callLossy':
      return `${client()} calls ${r['tool']}; the network loses its response after the first event, then breaks it`;
    case 'callTogether':
      return `${client()} and ${client('other')} call ${r['tool']} at once (both requests out before either is answered)`;
    case 'callStale':
      return `${client()} calls ${r['tool']}; a proxy attaches the stale Last-Event-ID ${r['lastEventId']}`;
    case 'cut':
      return `the network cuts connection #${r['connection']} (${client()})`;
    case 'resumeLatest':
      return `${client()} resumes ${stream()} with its latest cursor`;
    case 'resumeEarlier':
      return `${client()} resumes ${stream()} with an earlier cursor`;
    case 'resumeCompleted':
      return `${client()} resumes ${stream()} with a cursor before the result`;
    case 'resumeForeign':
      return `${client()} resumes with ${client('other')}'s cursor (a proxy mixes sessions up)`;
    case 'resumePreRestart':
      return `${client()} resumes with a cursor from before the restart`;
    case 'resumeForged':
      return `${client()} resumes with a forged cursor`;
    case 'resumeMalformed':
      return `${client()} resumes with a malformed cursor`;
    case 'openStandalone':
      return `${client()} opens a standalone GET stream`;
    case 'resend':
      return `a proxy re-sends ${r['call']} (${r['tool']}, request ${r['requestId']}) of ${client()}`;
    case 'resendNoCursor':
      return `${client()} sends ${r['call']} again: it has no cursor to resume with`;
    case 'delete':
      return `${client()} deletes its session`;
    case 'headerless':
      return `a proxy sends ${client()}'s GET without Mcp-Session-Id`;
    case 'badVersion':
      return `a proxy sends ${client()}'s ${r['method'] === 'DELETE' ? 'DELETE' : 'standalone GET'} with MCP-Protocol-Version ${r['protocolVersion']}, which no revision has`;
    case 'advance':
      return `the server advances ${r['call']} (${r['tool']}, execution ${r['execution']})`;
    case 'notify':
      return `the server notifies ${client()} on its standalone stream`;
    case 'serverClose':
      return `the server closes connection #${r['connection']} asking ${client()} to poll back`;
    case 'restart':
      return `the server restarts (epoch ${r['epoch']})`;
    case 'expire':
      return `the server expires ${client()}'s session`;
    case 'resumeAttached':
      return `${client()} resumes ${stream()} with ${r['cursor'] === 'latest' ? 'its latest cursor' : 'an earlier cursor'} while connection #${r['connection']} still carries it`;
    case 'resumeTerminal':
      return `${client()} resumes the stream of ${r['call']} with its result's event ID`;
    case 'resendInFlight':
      return r['reuse'] === true
        ? `${client()} reuses request ${r['requestId']} of ${r['call']}, still in flight, for a call of ${r['otherTool']}`
        : `a proxy re-sends ${r['call']} (${r['tool']}, request ${r['requestId']}) of ${client()} while it is in flight`;
    case 'loseTail':
      return `the network loses the next ${r['frames'] === 1 ? 'frame' : `${r['frames']} frames`} on connection #${r['connection']} (${client()}), then breaks it`;
    case 'crashNode':
      return `node ${r['node']} crashes`;
    case 'restartNode':
      return `node ${r['node']} boots again`;
    case 'catchUp':
      return 'the shared store catches up: every write reaches every node';
    case 'callModern':
      return `${client()} calls ${r['tool']} (${r['revision']})`;
    case 'callProxied':
      return r['attaches'] === 'own cursor'
        ? `${client()} calls ${r['tool']} (${r['revision']}); a proxy attaches its own stale Last-Event-ID`
        : `${client()} calls ${r['tool']} (${r['revision']}); a proxy attaches ${client('other')}'s ${ATTACHED[String(r['attaches'])]}`;
    case 'reissue':
      return `${client()} re-issues ${r['call']} (${r['tool']}) under a new request ID: its exchange broke before the result`;
    case 'probeModern':
      return `${client()} probes the endpoint with a ${r['method']} (${r['revision']})`;
    case 'resendEchoed':
      return `${client()} takes the echoed tools/call of ${r['call']} (${r['tool']}, request ${r['requestId']}) for a request and sends it again`;
    case 'reissueLegacy':
      return `${client()} re-issues ${r['call']} (${r['tool']}) under a new request ID ${r['newSession'] === true ? 'in its new session, after a 404' : 'after a reset'}`;
    case 'abortTool':
      return `the server's tool ${r['tool']} of ${r['call']} fails mid-stream without an answer (execution ${r['execution']})`;
    case 'resumeSuperseded':
      return `${client()} resumes its superseded standalone stream with that stream's latest cursor`;
    default:
      return `unknown action ${r.kind}`;
  }
}

/** The observations' kinds, and the actions' (each an action kind of sim/config.ts ACTION_KINDS, or resendNoCursor). */
export const SERVER_OBSERVATIONS = ['request', 'response', 'frame', 'frameLost', 'breaks', 'end', 'endLost', 'execution', 'cancelled', 'protocol', 'stillOpen'] as const;

function observationText(r: StepRecord): string | null {
  switch (r['kind']) {
    case 'request':
      return requestText(r);
    case 'response':
      return `  → ${responseText(r)}`;
    case 'frame':
      return `  ← #${r['connection']} ${frameText(r)}`;
    case 'frameLost':
      return `  ✗ #${r['connection']} lost: ${frameText(r)}`;
    case 'breaks':
      return `  ✗ #${r['connection']} breaks (the client sees a cut)`;
    case 'end':
      return `  ← #${r['connection']} ${endText(r)}`;
    case 'endLost':
      return `  ✗ #${r['connection']} lost: end of stream`;
    case 'execution':
      return `  ⚙ ${r['tool']} ${r['call']} starts executing (execution ${r['execution']}, session ${r['session']})`;
    case 'cancelled':
      return `  ⊘ ${r['tool']} ${r['call']} cancelled (execution ${r['execution']})`;
    case 'protocol': {
      const revisions = r['revisions'] as readonly string[];
      return `(protocol ${r['protocol']}: ${revisions.map((revision, index) => `client ${index + 1} speaks ${revision}`).join(', ')})`;
    }
    case 'stillOpen':
      return `  (the server did not close #${r['connection']}: it stays open)`;
    default:
      return null;
  }
}

/** The server level's vocabulary. */
export const SERVER_VOCABULARY: Vocabulary = levelVocabulary(observationText, actionText);
