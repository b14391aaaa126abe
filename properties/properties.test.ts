// Every property can fail: for each one, a hand-made script that violates it on a target with the matching bug
// (a planted target, or a tiny misbehaving server built here on the server kit), at a known step, and the same
// script on the reference, where every property holds.

import { traceLines } from '../sim/levels/vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { freshLiteral, parseEventId } from '../core/index.ts';
import { MODERN_REVISION, type ProtocolChoice, type Revision, UNSUPPORTED_VERSION, resolveConfig } from '../sim/config.ts';
import { clientRevisions } from '../sim/revisions.ts';
import { runSimulation } from '../sim/engine.ts';
import { scriptChoices } from '../sim/shrink/script.ts';
import { fuzz } from '../sim/search/fuzz.ts';
import { findTarget } from '../targets/index.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { wrapHandle } from '../targets/wrap-handle.ts';
import { type Strategy, coreIncarnation, openKitRun } from '../targets/server-kit.ts';
import type { Frame, HttpRequest, HttpResponse, JsonRpcMessage, ProtocolEra, Target } from '../targets/target.ts';
import { isModernBody } from '../sim/tools.ts';
import { PROPERTY_NAMES, type PropertyName } from './names.ts';
import { isPrimingEvent } from './priming-event.ts';

const SEED = 'fixed';
const CONFIG = resolveConfig({ seed: SEED });

/** A misbehaving server for one test: the server kit with a strategy that breaks one rule. */
function inlineTarget(name: string, description: string, breaks: PropertyName[], strategy: Strategy, eras?: readonly ProtocolEra[]): Target {
  return { name, kind: 'planted', description, breaks, ...(eras === undefined ? {} : { eras }), open: (options) => openKitRun(strategy, options) };
}

/**
 * The first seed (mixed-0, mixed-1, ...) for which `--protocol mixed` gives the clients these eras on a dual-era
 * target: a hand-made script of both eras names its clients, so it needs to know which one is modern.
 */
function mixedSeed(wanted: readonly Revision[]): string {
  for (let n = 0; n < 200; n += 1) {
    const seed = `mixed-${n}`;
    const revisions = clientRevisions(resolveConfig({ seed, protocol: 'mixed', clients: wanted.length }), ['legacy', 'modern']);
    if (revisions.every((revision, index) => revision === wanted[index])) return seed;
  }
  throw new Error(`no seed among mixed-0..199 gives the clients ${wanted.join(', ')}`);
}

/** Client 1 speaks 2025-11-25 (with priming events: it has a cursor at once), client 2 speaks 2026-07-28. */
const LEGACY_THEN_MODERN: readonly Revision[] = ['2025-11-25', MODERN_REVISION];

/** Answers a GET or DELETE on a 2026-07-28-only endpoint as the legacy path does (400), not with 405. */
const modernOnlyAnswers400 = inlineTarget(
  'modern-only-400',
  'a 2026-07-28-only endpoint answering GET and DELETE with 400',
  ['modern-only-405'],
  { boot: (incarnation, options) => coreIncarnation(incarnation, options) },
  ['modern'],
);

/**
 * A dual-era endpoint whose resume finds the stream by its number alone, in the 2026-07-28 requests' record: a legacy
 * client's resume joins a modern request's stream (a store keyed by stream number, shared by both eras).
 */
const resumeJoinsModernStream = inlineTarget('resume-joins-modern-stream', "a legacy resume joins the 2026-07-28 request's stream of the same number", ['era-isolation'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      decide: (request) => {
        const decision = base.decide(request);
        const parsed = request.kind === 'get' ? parseEventId(request.lastEventId) : null;
        if (decision.kind !== 'stream' || parsed === null || !parsed.ok) return decision;
        const stream = base.state.stateless.streams[parsed.parts.streamIndex - 1];
        if (stream === undefined) return decision;
        return { ...decision, stream, replay: [...stream.retained], reset: null, then: stream.status === 'open' ? 'live' : 'end' };
      },
    };
  },
}, ['legacy', 'modern']);

/**
 * A 2026-07-28 endpoint that neither cancels a request whose exchange broke nor keeps exchanges apart: a new request
 * joins the earlier request's stream while it is still open, so the broken request's messages reach the new exchange.
 */
const modernJoinsBrokenExchange = inlineTarget('modern-joins-broken-exchange', "a new 2026-07-28 request joins a broken request's open stream", ['disconnect-cancels'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      cancelOnDisconnect: false,
      decide: (request) => {
        const decision = base.decide(request);
        if (decision.kind !== 'execute' || request.kind !== 'post' || request.modern !== true) return decision;
        const earlier = base.state.stateless.streams.find((stream) => stream.status === 'open');
        if (earlier === undefined) return decision;
        return { kind: 'stream', rule: decision.rule, session: decision.session, stream: earlier, replay: [...earlier.retained], reset: null, then: 'live' };
      },
    };
  },
}, ['modern']);

function builtIn(name: string): Target {
  const target = findTarget(name);
  if (target === undefined) throw new Error(`no built-in target ${name}`);
  return target;
}

/** Answers a request without Mcp-Session-Id with 404 instead of 400. */
const headerless404 = inlineTarget('headerless-404', 'a request without Mcp-Session-Id gets 404, not 400', ['missing-session-id-400'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      decide: (request) => {
        const initialize = request.kind === 'post' && request.initialize;
        if (request.sessionId !== null || initialize) return base.decide(request);
        return { kind: 'reject', rule: 'session-not-live', status: 404, detail: 'session not found' };
      },
    };
  },
});

/** Numbers each result with the request id before its own (an off-by-one in the response writer). */
const resultIdOffByOne = inlineTarget('result-id-off-by-one', 'a result carries the request id one below its request', ['result-to-its-request'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      append: (stream, stored, flags) => {
        const message = stored.message;
        if (!flags.terminal || message === null || typeof message['id'] !== 'number') return base.append(stream, stored, flags);
        const renumbered: JsonRpcMessage = { ...message, id: message['id'] - 1 };
        return base.append(stream, { ...stored, message: renumbered }, flags);
      },
    };
  },
});

/** A re-sent request joins its stream, and the replay of the stream's log is written twice. */
const doubleReplayOnResend = inlineTarget('double-replay-on-resend', "a re-sent request's stream is replayed twice over", ['in-order-per-stream'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      decide: (request) => {
        const decision = base.decide(request);
        if (decision.kind !== 'stream' || decision.rule !== 'duplicate-request-attaches') return decision;
        const retained = decision.stream.retained;
        return { ...decision, reset: null, replay: [...retained, ...retained] };
      },
    };
  },
});

/** A cursor into a completed stream gets a fresh, empty stream that stays open: the result never comes. */
const freshAndOpen = inlineTarget('fresh-and-open', 'a resume into a completed stream gets an empty live stream', ['no-lost-result'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options, { completedStreamPolicy: freshLiteral });
    return {
      ...base,
      decide: (request) => {
        const decision = base.decide(request);
        if (decision.kind !== 'stream' || decision.rule !== 'completed-fresh-silent') return decision;
        return { ...decision, then: 'live' };
      },
    };
  },
});

/** Replays everything after the presented cursor, as SSE reads literally: what the server wrote before is sent again. */
const replayAfterCursor = inlineTarget('replay-after-cursor', 'a resume replays every retained event after the cursor, written before or not', ['no-duplicate-delivery'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      decide: (request) => {
        const decision = base.decide(request);
        if (decision.kind !== 'stream' || decision.reset?.reason !== 'possibly-delivered') return decision;
        const fromSeq = decision.reset.missedFromSeq;
        return { ...decision, reset: null, replay: decision.stream.retained.filter((event) => event.seq >= fromSeq) };
      },
    };
  },
});

/**
 * `target` with the frames `dropped` picks left out: its host is never told of them, so the property `breaks` sees a
 * server that never sends them.
 */
function withoutFrames(target: Target, name: string, description: string, breaks: PropertyName, dropped: (frame: Frame) => boolean): Target {
  return {
    ...target,
    name,
    description: `${target.name} ${description}`,
    breaks: [...target.breaks, breaks],
    open: async (options) => {
      const run = await target.open(options);
      return {
        ...run,
        boot: (incarnation, host) =>
          run.boot(incarnation, {
            frame: (connection, frame) => {
              if (dropped(frame)) return;
              host.frame(connection, frame);
            },
            end: (connection) => host.end(connection),
            startExecution: (start) => host.startExecution(start),
            nextStep: (execution) => host.nextStep(execution),
            cancelled: (execution) => host.cancelled(execution),
            random: () => host.random(),
          }),
      };
    },
  };
}

/**
 * The reference answering a request that carries MCP-Protocol-Version UNSUPPORTED_VERSION with `answer` (its own
 * response to the request without the header, when `answer` returns null): a server that does not check the header.
 */
function withBadVersionAnswer(name: string, description: string, answer: (request: HttpRequest) => HttpResponse | null): Target {
  const wrapped = wrapHandle(referenceTarget, (request, handle) => {
    if (request.protocolVersion !== UNSUPPORTED_VERSION) return handle(request);
    const { protocolVersion: _ignored, ...unversioned } = request;
    return answer(request) ?? handle(unversioned as HttpRequest);
  });
  return { ...wrapped, name, description: `${referenceTarget.name} ${description}`, breaks: [...referenceTarget.breaks, 'unsupported-version-400'] };
}

/** Ignores MCP-Protocol-Version: the GET opens the standalone stream (200), as a server that never reads the header does. */
const versionIgnored = withBadVersionAnswer('version-ignored', 'ignoring MCP-Protocol-Version', () => null);
/** Answers an unsupported MCP-Protocol-Version with 404, as @hono/mcp 0.3.2 does (FIELD.md), for a live session. */
const version404 = withBadVersionAnswer('version-404', 'answering an unsupported MCP-Protocol-Version with 404', () => ({ status: 404, sessionId: null, streaming: false, body: null }));

/** `target` without priming events: a call's stream begins with its first message (as the SDK 1.32.2 transport's does without an event store). */
function withoutPriming(target: Target, name: string): Target {
  return withoutFrames(target, name, 'without priming events', 'priming-event', isPrimingEvent);
}

const noPriming = withoutPriming(referenceTarget, 'no-priming');

/**
 * The reference without the `retry:` event it sends before a polling close (a frame with neither data nor an event
 * ID): the close ends the connection with no retry field before it, as the SDKs' standalone GET stream does.
 */
const noRetry = withoutFrames(referenceTarget, 'no-retry', 'without the retry field before a polling close', 'retry-before-close', (frame) => frame.retryMs !== null && frame.data === null && frame.eventId === null);

/** A dual-era endpoint that answers a 2026-07-28 call with an `Mcp-Session-Id` (a session minted for it). */
const modernAnswersSessionId: Target = wrapHandle(
  {
    name: 'modern-answers-session-id',
    kind: 'planted',
    description: 'a 2026-07-28 call is answered with an Mcp-Session-Id',
    breaks: ['modern-exchange-stateless'],
    eras: ['legacy', 'modern'],
    open: async (options) => openKitRun({ boot: (incarnation, bootOptions) => coreIncarnation(incarnation, bootOptions) }, options),
  },
  (request, handle) => {
    // The kit answers at once: the wrapper does too, so the run stays synchronous.
    const response = handle(request) as HttpResponse;
    return request.method === 'POST' && isModernBody(request.body) ? { ...response, sessionId: 'sminted' } : response;
  },
);

/** A dual-era endpoint whose new 2026-07-28 request gets the previous one's retained events first (a store keyed by nothing). */
const modernReplaysPrevious = inlineTarget('modern-replays-previous', "a 2026-07-28 request's exchange carries the previous request's progress", ['modern-exchange-own-messages'], {
  boot: (incarnation, options) => {
    const base = coreIncarnation(incarnation, options);
    return {
      ...base,
      decide: (request) => {
        const decision = base.decide(request);
        const previous = base.state.stateless.streams.at(-1);
        if (decision.kind !== 'execute' || decision.rule !== 'modern-execute' || previous === undefined) return decision;
        return { kind: 'execute-with-replay', rule: 'modern-replays-previous', session: decision.session, replay: [...previous.retained] };
      },
    };
  },
}, ['legacy', 'modern']);

/** One hand-made counterexample: the script, where it breaks the property, and what happens. */
interface Case {
  readonly property: PropertyName;
  readonly what: string;
  readonly target: Target;
  readonly script: readonly string[];
  /** The step index the violation is reported at (the script's length when the liveness phase finds it). */
  readonly step: number;
  /** The config seed, when the case needs another one than SEED (the SDK's clock and randomness come from it). */
  readonly seed?: string;
  /** The protocol the clients speak (default: none configured, 2025-11-25). */
  readonly protocol?: ProtocolChoice;
  /** The script that holds on the reference, when the case's own is no counterexample there either (a note's). */
  readonly holds?: readonly string[];
  /** Check this property alone: another one the same bug breaks in the same step would be reported first. */
  readonly alone?: boolean;
  /** The run offers the version fault (config versionFaults). */
  readonly versionFaults?: boolean;
}

const CASES: readonly Case[] = [
  {
    property: 'status-codes',
    what: "a resume carrying an expired session's ID gets 200 from a server that mints a fresh session",
    target: builtIn('counter-ids'),
    script: ['client 1 initializes', 'client 1 calls read', "the server expires client 1's session", 'client 1 resumes the stream of c1 with its latest cursor'],
    step: 3,
  },
  {
    property: 'missing-session-id-400',
    what: 'a GET without Mcp-Session-Id gets 404 instead of 400',
    target: headerless404,
    script: ['client 1 initializes', "a proxy sends client 1's GET without Mcp-Session-Id"],
    step: 1,
  },
  {
    property: 'no-cross-session-delivery',
    what: "client 1 resumes with client 2's cursor and receives client 2's result",
    target: builtIn('no-owner-check'),
    script: ['client 1 initializes', 'client 2 initializes', 'client 1 calls read', 'client 2 calls read', "client 1 resumes with client 2's cursor"],
    step: 5,
  },
  {
    property: 'no-cross-epoch-replay',
    what: 'after a restart the session ID is issued again and a pre-restart cursor replays the old incarnation\'s result',
    target: builtIn('no-epoch-check'),
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'the network cuts connection #2',
      'the server advances c1',
      'the server restarts',
      'client 1 calls read',
      'client 1 initializes',
      'client 1 resumes with a cursor from before the restart',
    ],
    step: 7,
  },
  {
    property: 'no-cross-stream-replay',
    what: "resuming c2's stream replays c1's result too",
    target: builtIn('cross-stream-replay'),
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'client 1 calls read',
      'the server advances c1',
      'the network cuts connection #3',
      'client 1 resumes the stream of c2 with its latest cursor',
    ],
    step: 5,
  },
  {
    property: 'result-to-its-request',
    what: "c2's result comes back as the answer to request 2, which was c1's",
    target: resultIdOffByOne,
    script: ['client 1 initializes', 'client 1 calls read', 'client 1 calls read', 'the server advances c2'],
    step: 3,
  },
  {
    property: 'no-redelivery',
    what: 'a resume replays the cursor event itself, progress #1 again',
    target: builtIn('replay-includes-cursor'),
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the server advances c1',
      'the network cuts connection #2',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 4,
  },
  {
    property: 'in-order-per-stream',
    what: "a re-sent request's replay delivers progress #1 twice on one connection",
    target: doubleReplayOnResend,
    script: ['client 1 initializes', 'client 1 calls work', 'the network cuts connection #2', 'the server advances c1', 'a proxy re-sends c1'],
    step: 4,
  },
  {
    property: 'no-silent-gap',
    what: 'a cursor whose successor was evicted gets progress #2 with no reset',
    target: builtIn('silent-window-skip'),
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the network cuts connection #2',
      'the server advances c1',
      'the server advances c1',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 6,
  },
  {
    property: 'no-silent-gap',
    what: 'a resume into a completed stream is ended without the result and without a reset',
    target: builtIn('fresh-literal'),
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'the network cuts connection #2',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 4,
  },
  {
    property: 'exactly-once-execution',
    what: 'a retrying proxy re-sends an append and it runs twice',
    target: builtIn('no-ledger'),
    script: ['client 1 initializes', 'client 1 calls append', 'the network cuts connection #2', 'a proxy re-sends c1'],
    step: 3,
  },
  {
    property: 'exactly-once-execution',
    what: "a resume replays the append's buffered request frame and it runs again",
    target: builtIn('replay-request-frames'),
    script: [
      'client 1 initializes',
      'client 1 calls append',
      'the network cuts connection #2',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 3,
  },
  {
    property: 'no-lost-result',
    what: 'a resume into a completed stream gets an empty stream that stays open, and the result never comes',
    target: freshAndOpen,
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'the network cuts connection #2',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 5,
  },
  {
    property: 'no-hang',
    what: 'a resume into a completed stream replays the result and then stays open',
    target: builtIn('no-terminal-check'),
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'the network cuts connection #2',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 5,
  },
  {
    property: 'no-duplicate-delivery',
    what: "seed 000's incident: the client got c1's result, a cursor before it is presented, and the result is replayed",
    target: builtIn('replay-tail'),
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'the server advances c1 (read, execution 1)',
      'client 1 resumes the stream of c1 with a cursor before the result',
    ],
    step: 3,
  },
  {
    property: 'no-duplicate-delivery',
    what: 'an earlier cursor of an open stream replays progress #1, which the client already has',
    target: replayAfterCursor,
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the server advances c1',
      'the network cuts connection #2',
      'client 1 resumes the stream of c1 with an earlier cursor',
    ],
    step: 4,
  },
  {
    property: 'one-connection-per-stream',
    what: 'a second GET for a stream its first connection still carries takes it over, and the first is left open silently',
    target: builtIn('rival-connection-kept'),
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor while connection #2 still carries it',
    ],
    step: 3,
  },
  {
    property: 'one-connection-per-stream',
    what: 'a request re-sent while its first POST is still open runs on a second stream; the first connection is left open',
    target: builtIn('no-ledger'),
    script: ['client 1 initializes', 'client 1 calls read', 'a proxy re-sends c1 (read, request 2) of client 1 while it is in flight'],
    step: 2,
  },
  {
    property: 'reused-request-id-refused',
    what: 'a POST reusing the request ID of a call still in flight, with other content, is executed',
    target: builtIn('no-in-flight-check'),
    script: ['client 1 initializes', 'client 1 calls read', 'client 1 reuses request 2 of c1, still in flight, for a call of append'],
    step: 2,
  },
  {
    property: 'no-redelivery',
    what: "a resume with the result's own event ID replays the result (a duplicate too; no-redelivery's monitor runs first)",
    target: builtIn('terminal-cursor-replays'),
    script: ['client 1 initializes', 'client 1 calls read', 'the server advances c1', "client 1 resumes the stream of c1 with its result's event ID"],
    step: 3,
  },
  {
    property: 'no-silent-gap',
    what: 'a lost tail took progress #1; the server, trusting it delivered, resumes after it without a reset',
    target: builtIn('trusts-delivery'),
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the network loses the next frame on connection #2',
      'the server advances c1',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 5,
  },
  {
    property: 'no-request-frame-delivered',
    what: "the resume replays the buffered tools/call request frame to the client (seed 000's variant as the seed tells it)",
    target: builtIn('echoes-request-frames'),
    script: ['client 1 initializes', 'client 1 calls append', 'the network cuts connection #2', 'client 1 resumes the stream of c1 with its latest cursor'],
    step: 3,
  },
  {
    property: 'priming-event',
    what: "a call's stream begins with its result, no priming event before it (kept aside: found at its step, reported once the run is over)",
    target: noPriming,
    script: ['client 1 initializes', 'client 1 calls read', 'the server advances c1'],
    step: 2,
  },
  {
    property: 'retry-before-close',
    what: 'the server closes a call\'s connection to make the client poll, with no retry field before it (kept aside: found at its step, reported once the run is over)',
    target: noRetry,
    script: ['client 1 initializes', 'client 1 calls work', 'the server closes connection #2'],
    step: 2,
  },
  {
    property: 'retry-before-close',
    what: "the SDK closes the standalone GET stream (closeStandaloneSSEStream) with no retry field on it: it sends its retry interval in a POST stream's priming event only",
    target: builtIn('sdk'),
    script: ['client 1 initializes', 'client 1 opens a standalone GET stream', 'the server closes connection #2'],
    step: 2,
    alone: true,
  },
  {
    property: 'no-withheld-result',
    what: 'the client was cut before the result; its resume gets a reset in place of the result the server never sent',
    target: builtIn('fresh-with-reset'),
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'the network cuts connection #2',
      'the server advances c1',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 4,
  },
  {
    property: 'no-lost-notification',
    what: "the SDK's example store cannot resume the standalone stream: the closing notification never arrives",
    target: builtIn('sdk'),
    script: [
      'client 1 initializes',
      'client 1 opens a standalone GET stream',
      'the server notifies client 1',
      'the network cuts connection #2',
      'client 1 resumes its standalone stream with its latest cursor',
      'the server notifies client 1',
    ],
    step: 6,
  },
  {
    property: 'well-formed-messages',
    what: "the SDK's example store replays its stored priming placeholder {} as an event (same-millisecond order)",
    target: builtIn('sdk'),
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the server advances c1',
      'the network cuts connection #2',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 4,
    seed: '5',
  },
  {
    property: 'disconnect-cancels',
    what: "a 2026-07-28 client's exchange is cut and not cancelled; its next request joins the broken one's stream and is replayed its progress",
    target: modernJoinsBrokenExchange,
    script: ['client 1 calls work (2026-07-28)', 'the server advances c1', 'the network cuts connection #0', 'client 1 calls read (2026-07-28)'],
    step: 3,
    protocol: '2026-07-28',
    // Checked alone: the same bug (the tool runs on) is reported first as disconnect-stops-work in that step.
    alone: true,
  },
  {
    property: 'disconnect-stops-work',
    what: "a 2026-07-28 client's exchange is cut; the dual-era server lets the tool run on, and the liveness phase advances it",
    target: builtIn('modern-disconnect-runs-on'),
    script: ['client 1 calls read (2026-07-28)', 'the network cuts connection #0'],
    step: 2,
    protocol: '2026-07-28',
  },
  {
    property: 'modern-exchange-stateless',
    what: "a proxy attaches client 1's Mcp-Session-Id to client 2's 2026-07-28 call, and the tool runs in client 1's session",
    target: builtIn('modern-joins-legacy-session'),
    script: ['client 1 initializes', "client 2 calls read (2026-07-28); a proxy attaches client 1's Mcp-Session-Id"],
    step: 1,
    seed: mixedSeed(LEGACY_THEN_MODERN),
    protocol: 'mixed',
  },
  {
    property: 'modern-exchange-stateless',
    what: 'a 2026-07-28 call is answered with an Mcp-Session-Id',
    target: modernAnswersSessionId,
    script: ['client 1 calls read (2026-07-28)'],
    step: 0,
    protocol: '2026-07-28',
  },
  {
    property: 'modern-exchange-own-messages',
    what: "a 2026-07-28 call's exchange carries the previous call's progress",
    target: modernReplaysPrevious,
    script: ['client 1 calls work (2026-07-28)', 'the server advances c1', 'client 1 calls read (2026-07-28)'],
    step: 2,
    protocol: '2026-07-28',
  },
  {
    property: 'era-isolation',
    what: "a proxy attaches client 1's legacy cursor to client 2's 2026-07-28 call, and the legacy stream's progress is replayed into it",
    target: builtIn('modern-cursor-replays'),
    script: [
      'client 1 initializes',
      'client 1 calls work',
      'the network cuts connection #2',
      'the server advances c1',
      "client 2 calls read (2026-07-28); a proxy attaches client 1's latest Last-Event-ID",
    ],
    step: 4,
    seed: mixedSeed(LEGACY_THEN_MODERN),
    protocol: 'mixed',
  },
  {
    property: 'era-isolation',
    what: "client 1's legacy resume joins client 2's 2026-07-28 stream of the same number and gets its progress",
    target: resumeJoinsModernStream,
    script: [
      'client 1 initializes',
      'client 1 calls read',
      'client 2 calls work (2026-07-28)',
      'the server advances c2',
      'the network cuts connection #2',
      'client 1 resumes the stream of c1 with its latest cursor',
    ],
    step: 5,
    seed: mixedSeed(LEGACY_THEN_MODERN),
    protocol: 'mixed',
  },
  {
    property: 'modern-only-405',
    what: 'a 2026-07-28-only endpoint answers a GET as its legacy path would (400), not 405',
    target: modernOnlyAnswers400,
    script: ['client 1 probes the endpoint with a GET (2026-07-28)'],
    step: 0,
    protocol: '2026-07-28',
  },
  {
    property: 'unsupported-version-400',
    what: 'a standalone GET with an unsupported MCP-Protocol-Version is served (200) by a server that never reads the header',
    target: versionIgnored,
    script: ['client 1 initializes', "a proxy sends client 1's standalone GET with MCP-Protocol-Version"],
    step: 1,
    versionFaults: true,
  },
  {
    property: 'unsupported-version-400',
    what: 'a DELETE with an unsupported MCP-Protocol-Version ends the session (200) on a server that never reads the header',
    target: versionIgnored,
    script: ['client 1 initializes', "a proxy sends client 1's DELETE with MCP-Protocol-Version"],
    step: 1,
    versionFaults: true,
  },
  {
    property: 'unsupported-version-400',
    what: 'the same GET answered 404 for a live session, where the header rule says 400',
    target: version404,
    script: ['client 1 initializes', "a proxy sends client 1's standalone GET with MCP-Protocol-Version"],
    step: 1,
    versionFaults: true,
  },
  {
    property: 'reissued-call-runs-again',
    what: 'a note: an append whose 2026-07-28 exchange broke is re-issued and runs again (permitted by the revision)',
    target: referenceTarget,
    script: ['client 1 calls append (2026-07-28)', 'the network cuts connection #0'],
    step: 2,
    protocol: '2026-07-28',
    holds: ['client 1 calls append (2026-07-28)'],
  },
];

async function runScript(target: Target, script: readonly string[], seed?: string, protocol?: ProtocolChoice, properties?: readonly PropertyName[], versionFaults?: boolean) {
  const config =
    seed === undefined && protocol === undefined && versionFaults !== true
      ? CONFIG
      : resolveConfig({ seed: seed ?? SEED, ...(protocol === undefined ? {} : { protocol }), ...(versionFaults === true ? { versionFaults } : {}) });
  return runSimulation(target, config, scriptChoices(script), { record: true, ...(properties === undefined ? {} : { properties }) });
}

describe(`hand-made counterexamples, one or more per property (seed ${SEED})`, () => {
  it('covers every property', () => {
    const covered = new Set(CASES.map((testCase) => testCase.property));
    expect(PROPERTY_NAMES.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('modern-only-405: the probes hold on reference-modern, the reference as a 2026-07-28-only endpoint (405)', async () => {
    const script = ['client 1 probes the endpoint with a GET (2026-07-28)', 'client 1 probes the endpoint with a DELETE (2026-07-28)'];
    const result = await runScript(builtIn('reference-modern'), script);
    expect(result.violation).toBeNull();
    expect(traceLines(result.trace).slice(0, 2).map((step) => step.notes.find((note) => note.includes('→')))).toEqual(['  → 405', '  → 405']);
  });

  for (const testCase of CASES) {
    it(`${testCase.property}: ${testCase.what} (${testCase.target.name}, step ${testCase.step}, seed ${testCase.seed ?? SEED})`, async () => {
      const result = await runScript(testCase.target, testCase.script, testCase.seed, testCase.protocol, testCase.alone === true ? [testCase.property] : undefined, testCase.versionFaults);
      expect(result.violation?.property).toBe(testCase.property);
      expect(result.violation?.step).toBe(testCase.step);
      // A liveness violation is found after the whole script; a safety violation during its last step.
      expect(result.steps).toBe(testCase.script.length);
      // The recorded trace reads back as the script (each entry is the whole action or a prefix of it).
      const actions = traceLines(result.trace).filter((step) => step.phase === 'faults').map((step) => step.action);
      expect(actions.map((action, index) => action.startsWith(testCase.script[index]!))).toEqual(testCase.script.map(() => true));
    });

    it(`${testCase.property}: ${testCase.holds === undefined ? 'the same script' : 'a script without the fault'} holds on reference (seed ${testCase.seed ?? SEED})`, async () => {
      const script = testCase.holds ?? testCase.script;
      const result = await runScript(referenceTarget, script, testCase.seed, testCase.protocol, undefined, testCase.versionFaults);
      expect(result.violation).toBeNull();
      expect(result.steps).toBe(script.length);
    });
  }
});

describe('a property kept aside (priming-event) never hides what else a run shows', () => {
  const unprimedOwnerCheck = withoutPriming(builtIn('no-owner-check'), 'no-owner-check-no-priming');
  const script = ['client 1 initializes', 'client 2 initializes', 'client 1 calls read', 'client 2 calls work', 'the server advances c2', "client 1 resumes with client 2's cursor", 'the server advances c2'];

  it('a later MUST violation is the run\'s verdict, though the warning came first', async () => {
    const result = await runScript(unprimedOwnerCheck, script);
    expect(result.violation?.property).toBe('no-cross-session-delivery');
    // Step 6 (steps count from 0), c2's next message reaching client 1's resume; the warning was seen at step 4, the
    // first frame of c2's stream.
    expect(result.violation?.step).toBe(6);
  });

  it('checked alone, the warning is the verdict, at the step that showed it', async () => {
    const result = await runScript(unprimedOwnerCheck, script, undefined, undefined, ['priming-event']);
    expect(result.violation).toMatchObject({ property: 'priming-event', step: 4 });
    expect(result.steps).toBe(script.length);
  });

  it('with the priming events the server sends, the same script shows only the MUST', async () => {
    const result = await runScript(builtIn('no-owner-check'), script, undefined, undefined, ['priming-event']);
    expect(result.violation).toBeNull();
  });
});

describe('retry-before-close: a retry field received earlier on the stream counts', () => {
  it("the SDK's call stream carries its retry interval in the priming event: closing the POST's connection holds", async () => {
    const result = await runScript(builtIn('sdk'), ['client 1 initializes', 'client 1 calls work', 'the server closes connection #2'], undefined, undefined, ['retry-before-close']);
    expect(traceLines(result.trace)[2]!.notes).toContain('  ← #2 closed (the stream goes on)');
    expect(result.violation).toBeNull();
  });

  it('closing a resumed connection of the stream holds too, though the retry field came on the first', async () => {
    const script = ['client 1 initializes', 'client 1 calls work', 'the server closes connection #2', 'client 1 resumes the stream of c1 with its latest cursor', 'the server closes connection #3'];
    const result = await runScript(builtIn('sdk'), script, undefined, undefined, ['retry-before-close']);
    expect(traceLines(result.trace)[4]!.notes).toContain('  ← #3 closed (the stream goes on)');
    expect(result.violation).toBeNull();
  });
});

describe('retry-before-close over a server that polls on its own: another defect is not charged to it', () => {
  // A cross-stream replay or a foreign cursor's resume ends connections with the stream the client expects unanswered
  // there (another stream's response on it, or a resume taking the stream over): no polling close.
  for (const name of ['cross-stream-replay', 'no-owner-check', 'resume-if-known']) {
    it(`${name}: no retry-before-close in 2 000 runs (seed 1), checked alone`, async () => {
      const outcome = await fuzz({ target: builtIn(name), config: resolveConfig({ seed: '1' }), runsMax: 2000, timeMs: null, properties: ['retry-before-close'] });
      expect(outcome.findings.map((finding) => finding.trace.verdict?.explanation ?? '')).toEqual([]);
    });
  }
});

describe('status-codes: a 405 to a GET or a DELETE is the server refusing the method, not a session answered wrongly', () => {
  // "…or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this
  // endpoint"; "The server MAY respond to this request with HTTP 405 Method Not Allowed".
  const noGetNoDelete = wrapHandle(referenceTarget, (request, handle) => (request.method === 'POST' ? handle(request) : { status: 405, sessionId: null, streaming: false, body: null }));
  const expired = ['client 1 initializes', 'client 1 calls read', "the server expires client 1's session"];

  it("an expired session's resume and DELETE answered 405 by a server that offers neither hold", async () => {
    for (const last of ['client 1 resumes the stream of c1 with its latest cursor', "client 1 deletes its session"]) {
      const result = await runScript(noGetNoDelete, [...expired, last], undefined, undefined, ['status-codes']);
      expect(traceLines(result.trace).at(-1)!.notes.find((note) => note.includes('→'))).toBe('  → 405');
      expect(result.violation).toBeNull();
    }
  });

  it('a 405 to a call of an expired session is still a failure', async () => {
    const refusesCalls = wrapHandle(referenceTarget, (request, handle) => (request.method === 'POST' && request.sessionId !== null && request.body['method'] === 'tools/call' ? { status: 405, sessionId: null, streaming: false, body: null } : handle(request)));
    const result = await runScript(refusesCalls, [...expired, 'client 1 calls read'], undefined, undefined, ['status-codes']);
    expect(result.violation?.property).toBe('status-codes');
    expect(result.violation?.explanation).toMatch(/yet a call request carrying it got 405, expected 404/);
  });
});

describe('the version fault is offered only when the config asks for it (seed 1, 300 runs)', () => {
  const search = (versionFaults: boolean) =>
    fuzz({ target: versionIgnored, config: resolveConfig({ seed: '1', ...(versionFaults ? { versionFaults } : {}) }), runsMax: 300, timeMs: null, stopAtFirst: true, properties: ['unsupported-version-400'] });

  it('with versionFaults, a fuzz finds the server that ignores MCP-Protocol-Version, shrunk to its initialize and the GET', async () => {
    const outcome = await search(true);
    expect(outcome.findings.map((finding) => finding.trace.verdict?.property)).toEqual(['unsupported-version-400']);
    const actions = traceLines(outcome.findings[0]!.trace.steps).map((step) => step.action);
    expect(actions.at(-1)).toMatch(/^a proxy sends client \d's standalone GET with MCP-Protocol-Version 1999-01-01, which no revision has$/);
    expect(actions.length).toBeLessThanOrEqual(2);
  });

  it("the reference checks the session first, as the SDKs do: an expired session's bad-version GET gets 404, a live one's DELETE 400", async () => {
    const script = ['client 1 initializes', "the server expires client 1's session", "a proxy sends client 1's standalone GET with MCP-Protocol-Version"];
    const expired = await runScript(referenceTarget, script, undefined, undefined, undefined, true);
    expect(expired.violation).toBeNull();
    expect(traceLines(expired.trace).at(-1)!.notes.find((note) => note.includes('→'))).toBe('  → 404');
    const live = await runScript(referenceTarget, ['client 1 initializes', "a proxy sends client 1's DELETE with MCP-Protocol-Version"], undefined, undefined, undefined, true);
    expect(live.violation).toBeNull();
    expect(traceLines(live.trace).at(-1)!.notes).toEqual(['DELETE #2 MCP-Protocol-Version: 1999-01-01', '  → 400']);
  });

  it("a server that checks the header before the session (400 for an expired session's bad-version GET) breaks neither rule", async () => {
    const versionFirst = withBadVersionAnswer('version-first', 'checking MCP-Protocol-Version before the session', () => ({ status: 400, sessionId: null, streaming: false, body: null }));
    const script = ['client 1 initializes', "the server expires client 1's session", "a proxy sends client 1's standalone GET with MCP-Protocol-Version"];
    const result = await runScript(versionFirst, script, undefined, undefined, undefined, true);
    expect(traceLines(result.trace).at(-1)!.notes.find((note) => note.includes('→'))).toBe('  → 400');
    expect(result.violation).toBeNull();
  });

  it('without it, no run sends such a header, so the same server holds', async () => {
    const outcome = await search(false);
    expect(outcome.findings).toEqual([]);
    expect(outcome.runs).toBe(300);
  });
});
