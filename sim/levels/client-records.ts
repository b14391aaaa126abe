// The client level's vocabulary: the records its steps hold (sim/levels/client-level.ts makes them), and how each
// reads as the line a trace prints. What the client level observes as the server level does (a request, a response,
// a frame, the end of a stream, an execution starting or cancelled) is a record of the server level's kind and fields,
// so the renderers lay both levels out alike; the rest is the client level's own.

import { type StepRecord, type Vocabulary, levelVocabulary } from './records.ts';
import { SERVER_VOCABULARY, endText, frameText } from './server-records.ts';


/**
 * A request as the client sent it, after its method (` tools/call Last-Event-ID e1 session s1`): the body's JSON-RPC
 * method for a POST (`bodyMethod`), then the `Last-Event-ID` and `Mcp-Session-Id` headers it carried, if any.
 */
function requestTail(r: StepRecord): string {
  const what = r['method'] === 'POST' ? ` ${r['bodyMethod'] ?? '(no method)'}` : '';
  const cursor = typeof r['lastEventId'] === 'string' ? ` Last-Event-ID ${r['lastEventId']}` : '';
  const session = typeof r['session'] === 'string' ? ` session ${r['session']}` : '';
  return `${what}${cursor}${session}`;
}

function actionText(r: StepRecord): string {
  const n = `#${r['connection']}`;
  switch (r['kind']) {
    case 'call':
      return `client ${r['client']} calls ${r['tool']} (${r['call']})`;
    case 'respond':
      return `the network delivers the response to ${n} (${r['method']}${requestTail(r)})`;
    case 'deliver':
      return r['end'] === true ? `the network delivers the end of connection ${n}` : `the network delivers the next frame on connection ${n}`;
    case 'cut':
      return r['beforeResponse'] === true ? `the network cuts connection ${n} before its response` : `the network cuts connection ${n}`;
    case 'advance':
      return `the server advances ${r['call']}${r['execution'] === 1 ? '' : ` (execution ${r['execution']})`}`;
    case 'serverClose':
      return `the server closes connection ${n}, asking the client to come back in ${r['retryMs']} ms`;
    case 'restart':
      return 'the server restarts';
    case 'tick':
      return `time passes: +${r['elapsedMs']} ms, a ${r['delayMs']} ms timer fires`;
    default:
      return `unknown action ${String(r['kind'])}`;
  }
}

/** The observations' kinds the client level has of its own (the others are the server level's: see the header). */
export const CLIENT_OBSERVATIONS = ['settled', 'requestLost', 'framesLost', 'incarnation', 'clock'] as const;

function observationText(r: StepRecord): string | null {
  const n = `#${r['connection']}`;
  switch (r['kind']) {
    case 'request':
      return `  ${r['method']} ${n}${requestTail(r)}`;
    case 'response':
      // A streamed response is shown as a stream; another with its JSON body (`body`, cut to 80 characters), if any.
      return `  ← ${n} ${r['status']}${r['sse'] === true ? ' event stream' : typeof r['body'] === 'string' ? ` ${r['body']}` : ''}`;
    case 'frame':
      return `  ← ${n} ${frameText(r)}`;
    case 'end':
      return `  ← ${n} ${endText(r)}`;
    case 'execution':
    case 'cancelled':
      return SERVER_VOCABULARY.text(r);
    case 'settled':
      return r['outcome'] === 'result' ? `  ✓ ${r['call']} settles with its result` : `  ✗ ${r['call']} settles with an error: ${r['error']}`;
    case 'requestLost':
      return `  ✂ ${n} lost before the server saw it`;
    case 'framesLost':
      return `  ✂ ${r['frames']} frame${r['frames'] === 1 ? '' : 's'} written on ${n} never arrive`;
    case 'incarnation':
      return `  ⟲ incarnation ${r['epoch']} starts: sessions and streams in memory are gone`;
    case 'clock':
      return `  ⏱ simulated time +${r['elapsedMs']} ms`;
    default:
      return null;
  }
}

/** The client level's vocabulary. */
export const CLIENT_VOCABULARY: Vocabulary = levelVocabulary(observationText, actionText);
