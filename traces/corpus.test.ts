// The kept counterexamples: every trace in traces/corpus/ replays, by its recorded choices, to the violation it
// recorded. A trace that stops reproducing means the system under test changed (a new SDK version fixed or moved a
// defect) or resumecheck did; docs/findings/mcp-typescript-sdk-1.32.2.md says how each was found and what it shows.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sequenceChoices } from '../sim/choices.ts';
import { runSimulation } from '../sim/engine.ts';
import { targetEntry } from '../targets/registry.ts';
import { readTrace } from './store.ts';
import type { Trace } from './trace.ts';

const CORPUS = fileURLToPath(new URL('./corpus/', import.meta.url));

/** Where a defect lives: the example event store, the SDK transport, or the EventStore interface itself. */
type Classification =
  | 'event store'
  | 'transport'
  | 'interface'
  | 'event store + transport'
  | 'interface + transport'
  | 'resumecheck false positive, fixed'
  | 'client transport';

/** What each corpus trace shows; the findings document has the full explanation with line references. */
interface Kept {
  readonly classification: Classification;
  readonly defect: string;
}

const KEPT: Readonly<Record<string, Kept>> = {
  'sdk--exactly-once-execution.json': { classification: 'transport', defect: 'a re-sent request ID runs the tool again' },
  'sdk--in-order-per-stream.json': { classification: 'event store', defect: 'same-millisecond events replayed in random-suffix order' },
  'sdk--no-hang.json': { classification: 'event store + transport', defect: 'an unknown cursor gets 200 and an empty stream that never ends' },
  'sdk--no-lost-result.json': { classification: 'event store', defect: 'a result stamped in the cursor\'s millisecond sorts before it and is never replayed' },
  'sdk--no-redelivery.json': { classification: 'event store', defect: 'an event sorted after the cursor is replayed again' },
  'sdk--no-silent-gap.json': { classification: 'event store', defect: 'the result replayed before the last progress' },
  'sdk-shared--exactly-once-execution.json': { classification: 'transport', defect: 'a re-sent request ID runs the tool again' },
  'sdk-shared--in-order-per-stream.json': { classification: 'event store', defect: 'same-millisecond events replayed in random-suffix order' },
  'sdk-shared--no-hang.json': { classification: 'event store + transport', defect: 'an unknown cursor gets 200 and an empty stream that never ends' },
  'sdk-shared--no-lost-result.json': { classification: 'event store', defect: 'a result stamped in the cursor\'s millisecond sorts before it and is never replayed' },
  'sdk-shared--no-redelivery.json': { classification: 'event store', defect: 'an event sorted after the cursor is replayed again' },
  'sdk-shared--no-silent-gap.json': { classification: 'event store', defect: 'the result replayed before the last progress' },
  'sdk-shared--no-cross-session-delivery.json': { classification: 'interface', defect: "a shared store replays one session's result into another session" },
  'sdk-shared--result-to-its-request.json': { classification: 'interface', defect: "another session's result answers this session's request ID" },
  'sdk-core--exactly-once-execution.json': { classification: 'transport', defect: 'a re-sent request ID runs the tool again; no store can see requests' },
  'sdk-core--holds--reexecution-in-order-per-stream.json': { classification: 'resumecheck false positive, fixed', defect: "once reported as in-order-per-stream: two executions' progress #1 on the re-sent request's stream; positions are now judged per execution" },
  'sdk-core--no-hang.json': { classification: 'interface + transport', defect: 'a resumed completed stream is never ended' },
  'sdk-core--no-lost-result.json': { classification: 'interface', defect: 'a cursor past the retained window can only be refused (500): no way to signal the gap' },
  'sdk-core--no-lost-result--resend.json': { classification: 'transport', defect: "the result goes to the re-sent request's stream; the resumed original stream never ends" },
  'sdk-core--holds--reexecution-no-redelivery.json': { classification: 'resumecheck false positive, fixed', defect: "once reported as no-redelivery: a second execution's progress #1, a new event after the cursor; positions are now judged per execution" },
  'sdk-core--holds--reexecution-no-silent-gap.json': { classification: 'resumecheck false positive, fixed', defect: "once reported as no-silent-gap: the first execution's progress #2 moved to the re-sent request's stream; positions are now judged per execution" },
  'sdk-core--no-silent-gap.json': { classification: 'transport', defect: "a re-sent request moves the first execution's later progress to the re-send's stream (request remapped): its progress #1 stays behind on the original stream, which the client never resumes" },
  'sdk--no-lost-notification.json': { classification: 'event store', defect: 'the standalone stream cannot be resumed: its cursor splits on "_" to stream "", and later notifications are never sent' },
  'sdk-shared--no-lost-notification.json': { classification: 'event store', defect: 'the standalone stream cannot be resumed: its cursor splits on "_" to stream "", and later notifications are never sent' },
  'sdk--well-formed-messages.json': { classification: 'event store', defect: 'the stored priming placeholder {} sorts after a progress event of its millisecond and is replayed as an event' },
  'sdk-shared--well-formed-messages.json': { classification: 'event store', defect: 'the stored priming placeholder {} sorts after a progress event of its millisecond and is replayed as an event' },
  'client-sdk--client-resumes-latest.json': { classification: 'client transport', defect: 'a resumed stream closed before a new event ID: the reconnect carries no Last-Event-ID (typescript-sdk #2499)' },
  'client-sdk2--client-resumes-latest.json': { classification: 'client transport', defect: 'a resumed stream closed before a new event ID: the reconnect carries no Last-Event-ID (typescript-sdk #2499)' },
  'client-sdk--client-reinitializes-after-404.json': { classification: 'client transport', defect: 'after a 404 the transport keeps the dead session ID and never re-initializes (typescript-sdk #1708)' },
  'client-sdk2--client-reinitializes-after-404.json': { classification: 'client transport', defect: 'after a 404 the transport keeps the dead session ID and never re-initializes (typescript-sdk #1708)' },
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

  for (const file of files) {
    const trace = load(file);
    const kept = KEPT[file];
    const property = trace.verdict?.property ?? 'holds';
    const title = `${trace.target} ${property === 'holds' ? '✓' : '✗'} ${property} — ${kept?.classification ?? 'unclassified'}: ${kept?.defect ?? file} (seed ${trace.seed})`;
    it(title, async () => {
      // The name says what the trace shows (a variant may follow), so a renamed or swapped file cannot pass unnoticed.
      expect(file).toMatch(new RegExp(`^${trace.target}--${property}(--[a-z-]+)?\\.json$`));
      const entry = targetEntry(trace.target);
      if (entry === undefined) throw new Error(`${file}: no target named ${trace.target}`);
      const target = await entry.load();
      const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
        ...(trace.properties === null ? {} : { properties: trace.properties }),
      });
      const got = result.violation === null ? 'holds' : `${result.violation.property}: ${result.violation.explanation}`;
      const expected = `${property}: ${trace.verdict?.explanation ?? ''}`;
      expect(result.violation?.property ?? 'holds', `${file} replays to ${got}; it recorded ${expected}`).toBe(property);
    });
  }
});
