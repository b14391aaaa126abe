// The kept counterexamples: every trace in traces/corpus/ replays, by its recorded choices, to the violation it
// recorded. A trace that stops reproducing means the system under test changed (a new SDK version fixed or moved a
// defect) or resumecheck did; the generated docs/findings/mcp-typescript-sdk-1.32.2.md and mcp-typescript-sdk-2.4.0.md
// charge each SDK trace to the component that produced it. Each SDK trace says the SDK it was found on, and replays against the other SDK
// line too (the target with the same store there), to what ON_OTHER_LINE records: the corpus tracks both lines.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sequenceChoices } from '../sim/choices.ts';
import { runSimulation } from '../sim/engine.ts';
import { targetEntry } from '../targets/registry.ts';
import type { PropertyName } from '../properties/names.ts';
import { readTrace } from './store.ts';
import type { Trace } from './trace.ts';

const CORPUS = fileURLToPath(new URL('./corpus/', import.meta.url));

/** What a trace of a target that is not an SDK server shows (an SDK server's trace is charged by replay instead). */
type Classification = 'completed-stream policy' | 'reference policy holds' | 'seed 000 as told' | 'client transport';

/**
 * What each corpus trace shows. A trace of an SDK target has no hand-written classification: the findings page of its
 * line charges it to a component by replaying it (cli/findings-page.ts, sim/shrink/attribution.ts); targets/sdk/NOTES.md and
 * targets/sdk2/NOTES.md explain the mechanisms with source lines.
 */
interface Kept {
  readonly classification?: Classification;
  readonly defect: string;
}

const KEPT: Readonly<Record<string, Kept>> = {
  // Found by the actions of issue 7 (docs/findings/mcp-typescript-sdk-1.32.2.md, "Issue 7").
  'sdk--one-connection-per-stream.json': { defect: 'a request ID re-sent while in flight opens a second stream for it; the first connection is never ended' },
  'sdk--reused-request-id-refused.json': { defect: 'a request ID still in flight, sent again with other content, is executed: the ID names two calls' },
  'sdk--no-duplicate-delivery.json': { defect: "seed 000's incident: a cursor before a result the client has replays it; no store is told what was written" },
  'sdk-shared--one-connection-per-stream.json': { defect: 'a request ID re-sent while in flight opens a second stream for it; the first connection is never ended' },
  'sdk-shared--reused-request-id-refused.json': { defect: 'a request ID still in flight, sent again with other content, is executed: the ID names two calls' },
  'sdk-shared--no-duplicate-delivery.json': { defect: "seed 000's incident: a cursor before a result the client has replays it; no store is told what was written" },
  'sdk-core--one-connection-per-stream.json': { defect: 'a request ID re-sent while in flight opens a second stream for it; the first connection is never ended' },
  'sdk-core--reused-request-id-refused.json': { defect: 'a request ID still in flight, sent again with other content, is executed: the ID names two calls' },
  'sdk-core--no-duplicate-delivery.json': { defect: "seed 000's incident: a cursor before a result the client has replays it; no store is told what was written" },
  // The completed-stream policies' shortest counterexamples (docs/decision-table.md), and the reference on the same.
  'replay-tail--no-duplicate-delivery.json': { classification: 'completed-stream policy', defect: "seed 000's incident: a cursor before a result the client has replays the result (4 steps)" },
  'fresh-literal--no-silent-gap.json': { classification: 'completed-stream policy', defect: 'cut before the result: the resume ends with neither the result nor a reset (3 steps)' },
  'fresh-with-reset--no-withheld-result.json': { classification: 'completed-stream policy', defect: 'cut before the result: the resume gets a reset in place of a result never sent (3 steps)' },
  'reference--holds--stale-cursor-after-result.json': { classification: 'reference policy holds', defect: "seed 000's incident under replay-unsent: the result was written, so a reset, not a second copy" },
  'reference--holds--cut-before-result.json': { classification: 'reference policy holds', defect: 'cut before the result under replay-unsent: the result was never written, so it is replayed' },
  'reference--holds--lost-tail-result-signalled.json': { classification: 'reference policy holds', defect: "a lost tail took the result: replay-unsent signals it (a reset) rather than risk a duplicate; replay-tail would deliver it" },
  // Seed 000 as the seed tells it (issue 17): the client presented "the last event of the prior stream", the terminal
  // event of a completed stream, and the server replayed into a new POST. The stale-cursor reading (a cursor before
  // the result) is replay-tail--no-duplicate-delivery.json above and the incident file's step 4.
  'terminal-cursor-replays--no-redelivery--literal-terminal-cursor.json': {
    classification: 'seed 000 as told',
    defect: "the literal step: a GET with the terminal event's ID of a completed stream; a server replaying at or after the cursor (<=) gives the result again",
  },
  'replay-includes-cursor--no-redelivery--literal-terminal-cursor.json': {
    classification: 'seed 000 as told',
    defect: "the literal step: a GET with the terminal event's ID of a completed stream; a server replaying from the cursor event itself (>=) gives the result again",
  },
  'resume-if-known--holds--literal-terminal-cursor-into-new-post.json': {
    classification: 'seed 000 as told',
    defect: "the literal step into a new POST: the terminal event's ID on a new tools/call; the seed's own rule (resume if the ID is known) replays strictly after it, and nothing follows a terminal event: it holds",
  },
  'resume-if-known--no-cross-stream-replay--completed-stream-into-new-post.json': {
    classification: 'seed 000 as told',
    defect: "the replay into a new POST: a cut client's cursor of a since-completed stream, on a new tools/call: the seed's rule replays that stream's result into the new request's stream",
  },
  'sdk--exactly-once-execution.json': { defect: 'a re-sent request ID runs the tool again' },
  'sdk--in-order-per-stream.json': { defect: 'same-millisecond events replayed in random-suffix order' },
  'sdk--no-hang.json': { defect: 'an unknown cursor gets 200 and an empty stream that never ends' },
  // The same property by another mechanism (its signature: "resume of a settled call, the cursor of a result"), kept
  // apart by the fuzz since issue 17.
  'sdk--no-hang--terminal-cursor.json': { defect: "a GET with the terminal event's ID of a completed stream gets 200, nothing replayed, and a stream that never ends" },
  'sdk--no-lost-result.json': { defect: 'a result stamped in the cursor\'s millisecond sorts before it and is never replayed' },
  'sdk--no-redelivery.json': { defect: 'an event sorted after the cursor is replayed again' },
  'sdk--no-silent-gap.json': { defect: 'the result replayed before the last progress' },
  'sdk-shared--exactly-once-execution.json': { defect: 'a re-sent request ID runs the tool again' },
  'sdk-shared--in-order-per-stream.json': { defect: 'same-millisecond events replayed in random-suffix order' },
  'sdk-shared--no-hang.json': { defect: 'an unknown cursor gets 200 and an empty stream that never ends' },
  'sdk-shared--no-lost-result.json': { defect: 'a result stamped in the cursor\'s millisecond sorts before it and is never replayed' },
  'sdk-shared--no-redelivery.json': { defect: 'an event sorted after the cursor is replayed again' },
  'sdk-shared--no-silent-gap.json': { defect: 'the result replayed before the last progress' },
  'sdk-shared--no-cross-session-delivery.json': { defect: "a shared store replays one session's result into another session" },
  'sdk-shared--result-to-its-request.json': { defect: "another session's result answers this session's request ID" },
  'sdk-core--exactly-once-execution.json': { defect: 'a re-sent request ID runs the tool again; no store can see requests' },
  'sdk-core--holds--reexecution-in-order-per-stream.json': { defect: "once reported as in-order-per-stream: two executions' progress #1 on the re-sent request's stream; positions are now judged per execution" },
  'sdk-core--no-hang.json': { defect: 'a resumed completed stream is never ended' },
  'sdk-core--holds--window-refused-no-lost-result.json': { defect: 'once reported as no-lost-result: a cursor past the retained window refused (500); an error answer to a resume is an answer (resumability is a MAY)' },
  'sdk-core--no-lost-result--resend.json': { defect: "the result goes to the re-sent request's stream; the resumed original stream never ends" },
  'sdk-core--holds--reexecution-no-redelivery.json': { defect: "once reported as no-redelivery: a second execution's progress #1, a new event after the cursor; positions are now judged per execution" },
  'sdk-core--holds--reexecution-no-silent-gap.json': { defect: "once reported as no-silent-gap: the first execution's progress #2 moved to the re-sent request's stream; positions are now judged per execution" },
  'sdk-core--no-silent-gap.json': { defect: "a re-sent request moves the first execution's later progress to the re-send's stream (request remapped): its progress #1 stays behind on the original stream, which the client never resumes" },
  'sdk--no-lost-notification.json': { defect: 'the standalone stream cannot be resumed: its cursor splits on "_" to stream "", and later notifications are never sent' },
  'sdk-shared--no-lost-notification.json': { defect: 'the standalone stream cannot be resumed: its cursor splits on "_" to stream "", and later notifications are never sent' },
  'sdk--well-formed-messages.json': { defect: 'the stored priming placeholder {} sorts after a progress event of its millisecond and is replayed as an event' },
  'sdk-shared--well-formed-messages.json': { defect: 'the stored priming placeholder {} sorts after a progress event of its millisecond and is replayed as an event' },
  // Found on @modelcontextprotocol/server 2.4.0 (sdk2-example and sdk2-shared now run the 2.x repository's example store,
  // written anew, which gives the same event IDs and replays as the 1.x example those traces were found with).
  'sdk2-example--exactly-once-execution.json': { defect: 'a re-sent request ID runs the tool again, as in 1.32.2 (6)' },
  'sdk2-example--in-order-per-stream.json': { defect: 'same-millisecond events replayed in random-suffix order (5)' },
  'sdk2-example--no-lost-notification.json': { defect: 'the standalone stream cannot be resumed; the resume now ends at once and later notifications are never sent (4)' },
  'sdk2-example--holds--expired-session-no-lost-result.json': { defect: "once reported as no-lost-result: the call of a client told 400 for its expired session never settled (the 2.x repository's earlier router); its router now answers 404 and the client re-initializes" },
  'sdk2-example--no-redelivery.json': { defect: 'an event sorted after the cursor is replayed again (5)' },
  'sdk2-example--no-silent-gap.json': { defect: 'a result sorted before the cursor is not replayed, and 2.x ends the replay because the request finished: a silent end' },
  'sdk2-example--well-formed-messages.json': { defect: 'the stored priming placeholder {} is replayed as an event (5)' },
  'sdk2-shared--exactly-once-execution.json': { defect: 'a re-sent request ID runs the tool again, as in 1.32.2 (6)' },
  'sdk2-shared--in-order-per-stream.json': { defect: 'same-millisecond events replayed in random-suffix order (5)' },
  'sdk2-shared--no-cross-session-delivery.json': { defect: "a shared store replays one session's progress into another session (1)" },
  'sdk2-shared--no-lost-notification.json': { defect: 'the standalone stream cannot be resumed; the resume now ends at once and later notifications are never sent (4)' },
  'sdk2-shared--holds--expired-session-no-lost-result.json': { defect: "once reported as no-lost-result: a client told 400 'Server not initialized' for its expired session (the 2.x repository's earlier routing); its router now answers 404 and the client re-initializes" },
  'sdk2-shared--no-redelivery.json': { defect: 'an event sorted after the cursor is replayed again (5)' },
  'sdk2-shared--no-silent-gap.json': { defect: 'a result sorted before the cursor is not replayed, and 2.x ends the replay: a silent end' },
  'sdk2-shared--result-to-its-request.json': { defect: "another session's result answers this session's request ID (1)" },
  'sdk2-shared--well-formed-messages.json': { defect: 'the stored priming placeholder {} is replayed as an event (5)' },
  'sdk2-core--exactly-once-execution.json': { defect: 'a re-sent request ID runs the tool again; no store can see requests (6)' },
  'sdk2-core--holds--expired-session-no-lost-result.json': { defect: "once reported as no-lost-result: the call of a client told 400 for its expired session never settled (the 2.x repository's earlier router); its router now answers 404 and the client re-initializes" },
  'sdk2-core--holds--window-refused-no-lost-result.json': { defect: 'once reported as no-lost-result: a cursor past the retained window refused (500); an error answer to a resume is an answer (8)' },
  'sdk2-core--no-silent-gap.json': { defect: "a re-sent request moves the first execution's later progress to the re-send's stream (6)" },
  'sdk2-dual-bare--status-codes.json': { defect: "an expired session's ID reaches a new transport, which answers 400 'Server not initialized'" },
  // The real SDK clients at the client level; docs/findings/mcp-typescript-sdk-clients.md explains them.
  'client-sdk--client-resumes-latest.json': { classification: 'client transport', defect: 'a resumed stream closed before a new event ID: the reconnect carries no Last-Event-ID (typescript-sdk #2499)' },
  'client-sdk2--client-resumes-latest.json': { classification: 'client transport', defect: 'a resumed stream closed before a new event ID: the reconnect carries no Last-Event-ID (typescript-sdk #2499)' },
  'client-sdk--client-reinitializes-after-404.json': { classification: 'client transport', defect: 'after a 404 the transport keeps the dead session ID and never re-initializes (typescript-sdk #1708)' },
  'client-sdk2--client-reinitializes-after-404.json': { classification: 'client transport', defect: 'after a 404 the transport keeps the dead session ID and never re-initializes (typescript-sdk #1708)' },
};

/**
 * Each SDK target's counterpart on the other SDK line: the target with the same event store, wired as that line's
 * examples wire it. The dual-era targets' legacy leg is sdk-core's store in a 2.x transport.
 */
const COUNTERPART: Readonly<Record<string, string>> = {
  sdk: 'sdk2-example',
  'sdk-shared': 'sdk2-shared',
  'sdk-core': 'sdk2-core',
  'sdk2-example': 'sdk',
  'sdk2-shared': 'sdk-shared',
  'sdk2-core': 'sdk-core',
  'sdk2-dual': 'sdk-core',
  'sdk2-dual-bare': 'sdk-core',
};

/**
 * What each SDK trace's choices give on the counterpart (checking the trace's own properties): the cell-by-cell
 * comparison of docs/findings/mcp-typescript-sdk-2.4.0.md. A change here means one line or the other changed.
 */
const ON_OTHER_LINE: Readonly<Record<string, PropertyName | 'holds'>> = {
  // Issue 7's actions: the same on both lines.
  'sdk--no-duplicate-delivery.json': 'no-duplicate-delivery',
  'sdk--one-connection-per-stream.json': 'one-connection-per-stream',
  'sdk--reused-request-id-refused.json': 'reused-request-id-refused',
  'sdk-shared--no-duplicate-delivery.json': 'no-duplicate-delivery',
  'sdk-shared--one-connection-per-stream.json': 'one-connection-per-stream',
  'sdk-shared--reused-request-id-refused.json': 'reused-request-id-refused',
  'sdk-core--no-duplicate-delivery.json': 'no-duplicate-delivery',
  'sdk-core--one-connection-per-stream.json': 'one-connection-per-stream',
  'sdk-core--reused-request-id-refused.json': 'reused-request-id-refused',
  'sdk--exactly-once-execution.json': 'exactly-once-execution',
  'sdk--in-order-per-stream.json': 'in-order-per-stream',
  'sdk--no-hang.json': 'holds',
  'sdk--no-hang--terminal-cursor.json': 'holds',
  'sdk--no-lost-notification.json': 'no-lost-notification',
  'sdk--no-lost-result.json': 'no-lost-result',
  'sdk--no-redelivery.json': 'no-redelivery',
  'sdk--no-silent-gap.json': 'no-silent-gap',
  'sdk--well-formed-messages.json': 'well-formed-messages',
  'sdk-core--exactly-once-execution.json': 'exactly-once-execution',
  'sdk-core--holds--reexecution-in-order-per-stream.json': 'holds',
  'sdk-core--holds--reexecution-no-redelivery.json': 'holds',
  'sdk-core--holds--reexecution-no-silent-gap.json': 'holds',
  'sdk-core--no-hang.json': 'holds',
  'sdk-core--no-lost-result--resend.json': 'holds',
  'sdk-core--holds--window-refused-no-lost-result.json': 'holds',
  'sdk-core--no-silent-gap.json': 'no-silent-gap',
  'sdk-shared--exactly-once-execution.json': 'exactly-once-execution',
  'sdk-shared--in-order-per-stream.json': 'in-order-per-stream',
  'sdk-shared--no-cross-session-delivery.json': 'no-cross-session-delivery',
  'sdk-shared--no-hang.json': 'holds',
  'sdk-shared--no-lost-notification.json': 'no-lost-notification',
  'sdk-shared--no-lost-result.json': 'no-lost-result',
  'sdk-shared--no-redelivery.json': 'no-redelivery',
  'sdk-shared--no-silent-gap.json': 'no-silent-gap',
  'sdk-shared--result-to-its-request.json': 'result-to-its-request',
  'sdk-shared--well-formed-messages.json': 'well-formed-messages',
  'sdk2-example--exactly-once-execution.json': 'exactly-once-execution',
  'sdk2-example--in-order-per-stream.json': 'in-order-per-stream',
  'sdk2-example--no-lost-notification.json': 'no-lost-notification',
  'sdk2-example--holds--expired-session-no-lost-result.json': 'holds',
  'sdk2-example--no-redelivery.json': 'no-redelivery',
  // 1.32.2 leaves that replay open instead: the same run is a no-lost-result there, not a silent gap.
  'sdk2-example--no-silent-gap.json': 'holds',
  'sdk2-example--well-formed-messages.json': 'well-formed-messages',
  'sdk2-shared--exactly-once-execution.json': 'exactly-once-execution',
  'sdk2-shared--in-order-per-stream.json': 'in-order-per-stream',
  'sdk2-shared--no-cross-session-delivery.json': 'no-cross-session-delivery',
  'sdk2-shared--no-lost-notification.json': 'no-lost-notification',
  'sdk2-shared--holds--expired-session-no-lost-result.json': 'holds',
  'sdk2-shared--no-redelivery.json': 'no-redelivery',
  'sdk2-shared--no-silent-gap.json': 'holds',
  'sdk2-shared--result-to-its-request.json': 'result-to-its-request',
  'sdk2-shared--well-formed-messages.json': 'well-formed-messages',
  'sdk2-core--exactly-once-execution.json': 'exactly-once-execution',
  'sdk2-core--holds--expired-session-no-lost-result.json': 'holds',
  'sdk2-core--holds--window-refused-no-lost-result.json': 'holds',
  'sdk2-core--no-silent-gap.json': 'no-silent-gap',
  'sdk2-dual-bare--status-codes.json': 'holds',
};

const files = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.json'))
  .sort();

function load(file: string): Trace {
  return readTrace(join(CORPUS, file));
}

describe('traces/corpus', () => {
  it('describes every corpus trace here, and every description has its trace', () => {
    expect(files).toEqual(Object.keys(KEPT).sort());
  });

  it('says, for every trace of an SDK target, what it gives on the other SDK line', () => {
    const sdkFiles = files.filter((file) => load(file).target in COUNTERPART);
    expect(sdkFiles).toEqual(Object.keys(ON_OTHER_LINE).sort());
  });

  for (const file of files) {
    const trace = load(file);
    const kept = KEPT[file];
    const property = trace.verdict?.property ?? 'holds';
    const title = `${trace.target} ${property === 'holds' ? '✓' : '✗'} ${property} — ${kept?.classification ?? 'charged on its findings page'}: ${kept?.defect ?? file} (seed ${trace.seed})`;
    it(title, async () => {
      // The name says what the trace shows (a variant may follow), so a renamed or swapped file cannot pass unnoticed.
      expect(file).toMatch(new RegExp(`^${trace.target}--${property}(--[a-z-]+)?\\.json$`));
      const target = await targetEntry(trace.target)?.load();
      if (target === undefined) throw new Error(`${file}: no target named ${trace.target}`);
      const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
        ...(trace.properties === null ? {} : { properties: trace.properties }),
      });
      const got = result.violation === null ? 'holds' : `${result.violation.property}: ${result.violation.explanation}`;
      const expected = `${property}: ${trace.verdict?.explanation ?? ''}`;
      expect(result.violation?.property ?? 'holds', `${file} replays to ${got}; it recorded ${expected}`).toBe(property);
      // A trace that recorded how it happened (its signature) replays by the same mechanism, not only the same property.
      if (trace.verdict?.signature !== undefined) expect(result.violation?.signature, `${file}: another mechanism`).toBe(trace.verdict.signature);
      // The SDK it was found on is the one installed: an upgrade shows here first, before any verdict moves.
      expect(trace.sdk, `${file} was recorded on ${String(trace.sdk)}`).toBe(target.sdk ?? null);
    });

    const counterpart = COUNTERPART[trace.target];
    const onOtherLine = ON_OTHER_LINE[file];
    if (counterpart === undefined || onOtherLine === undefined) continue;
    it(`${file} on the other line, ${counterpart}: ${onOtherLine === 'holds' ? '✓ holds' : `✗ ${onOtherLine}`}`, async () => {
      const target = await targetEntry(counterpart)?.load();
      if (target === undefined) throw new Error(`no target named ${counterpart}`);
      const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
        ...(trace.properties === null ? {} : { properties: trace.properties }),
      });
      const got = result.violation === null ? 'holds' : `${result.violation.property}: ${result.violation.explanation}`;
      expect(result.violation?.property ?? 'holds', `${file} on ${counterpart} gives ${got}`).toBe(onOtherLine);
    });
  }
});
