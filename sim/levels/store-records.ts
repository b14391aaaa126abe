// The store level's vocabulary: the records its steps hold (sim/levels/store-actions.ts makes them), and how each reads
// as the line a trace prints. Records name sessions by label (`session`: A, B), streams by label (`stream`: A.post1)
// and replays by number (`replay`), so the diagram lays them out by field; a value the store was given or gave back
// (`streamId`, `value`, `cursor`, `eventId`, `message`) is held as the line shows it (JSON, a long one cut: show()).

import { type StepRecord, type Vocabulary, levelVocabulary } from './records.ts';


/**
 * A storeEvent call's label from its record's `event` (its stream and position, `A.post1#2`) and `response` (it stores
 * the stream's response: `A.post1#3 (response)`).
 */
function eventLabel(r: StepRecord): string {
  return `${r['event']}${r['response'] === true ? ' (response)' : ''}`;
}

function actionText(r: StepRecord): string {
  const session = (field = 'session') => `session ${r[field]}`;
  switch (r['kind']) {
    case 'openSession':
      return `a new session opens (incarnation ${r['epoch']})`;
    case 'reuseSessionId':
      return `a new session opens with the ID of ${session('sessionReused')}, which an earlier incarnation issued`;
    case 'openPostStream':
      return `${session()} opens a request stream: storeEvent of its priming event {}`;
    case 'store':
      return `storeEvent of a notification on ${r['stream']}`;
    case 'respond':
      return `storeEvent of the response on ${r['stream']}`;
    case 'replayOwn':
      return `${session()} resumes after its cursor ${eventLabel(r)}`;
    case 'replayForeign':
      return `${session()} resumes with ${session('other')}'s latest cursor (a proxy mixes sessions up)`;
    case 'replayPreRestart':
      return `${session()} resumes with a cursor issued before the restart`;
    case 'replayForged':
      return `${session()} resumes with a forged cursor (its latest with one character changed)`;
    case 'replayMalformed':
      return `${session()} resumes with a string that is no event ID`;
    case 'awaitStore':
      return `await storeEvent of ${eventLabel(r)}`;
    case 'awaitReplay':
      return `await replay #${r['replay']}`;
    case 'releaseSend':
      return `the send callback of replay #${r['replay']} returns`;
    case 'restart':
      return `the server restarts (incarnation ${r['epoch']})`;
    case 'drain':
      return 'every held send returns and every call is awaited (end of run)';
    default:
      return `unknown action ${String(r['kind'])}`;
  }
}

/** The observations' kinds (the actions' are sim/levels/store-actions.ts STORE_ACTION_KINDS). */
export const STORE_OBSERVATIONS = [
  'factory',
  'sessionOpened',
  'sessionCarried',
  'streamOpened',
  'storeStarted',
  'storeResolved',
  'storeRejected',
  'replayStarted',
  'cursorOwn',
  'lookupResolved',
  'lookupRejected',
  'refused',
  'send',
  'replayReturned',
  'replayThrew',
  'timeout',
] as const;

function observationText(r: StepRecord): string | null {
  switch (r['kind']) {
    case 'factory':
      // A per-session factory call names its session; the shared store's, of the incarnation, names none.
      return typeof r['session'] === 'string'
        ? `  factory(${r['sessionId']}, epoch ${r['epoch']}) → a store for session ${r['session']}`
        : `  factory(null, epoch ${r['epoch']}) → the store every session of incarnation ${r['epoch']} shares`;
    case 'sessionOpened':
      return `  session ${r['session']} = ${r['sessionId']}${r['shared'] === true ? ' (the shared store)' : ''}`;
    case 'sessionCarried':
      return `  session ${r['session']} (${r['sessionId']}) goes on in incarnation ${r['epoch']} (--durable)`;
    case 'streamOpened':
      return `  ${r['stream']} = ${r['streamId']}`;
    case 'storeStarted':
      return `  storeEvent(${r['streamId']}, ${eventLabel(r)}) started`;
    case 'storeResolved':
      return `  storeEvent of ${eventLabel(r)} resolved: ${r['value']}`;
    case 'storeRejected':
      return `  storeEvent of ${eventLabel(r)} rejected: ${r['error']}`;
    case 'replayStarted':
      return `  replay #${r['replay']} of session ${r['session']}, Last-Event-ID ${r['cursor']}`;
    case 'cursorOwn':
      return `  the cursor is also session ${r['session']}'s own ID of ${eventLabel(r)}: judged as its own cursor`;
    case 'lookupResolved':
      return `  getStreamIdForEventId → ${r['value']}`;
    case 'lookupRejected':
      return `  getStreamIdForEventId rejected: ${r['error']}`;
    case 'refused':
      return `  refused by getStreamIdForEventId (the transport answers ${r['status']})`;
    case 'send':
      return `  replay #${r['replay']} sends ${r['eventId']} ${r['message']} (held)`;
    case 'replayReturned':
      return `  replay #${r['replay']} returned ${r['value']} after ${r['sends']} sends`;
    case 'replayThrew':
      return `  replay #${r['replay']} threw: ${r['error']}`;
    case 'timeout':
      return `  nothing settled within the call timeout (${r['timeoutMs']} ms): the run ends here`;
    default:
      return null;
  }
}

/** The store level's vocabulary. */
export const STORE_VOCABULARY: Vocabulary = levelVocabulary(observationText, actionText);
