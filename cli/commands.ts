// The CLI's table of commands: each entry is a command's whole interface (usage, arguments, options with their help,
// notes) and a lazy import of the code that runs it. A new command is one entry here and one file for its code.
// Only sim/config.ts (plain constants) is imported, so that `--help` loads nothing heavy.

import { CONFIG_BOUNDS, DEFAULT_CONFIG, EXPLORE_THREADS_MAX, PARALLEL_LEVEL_MIN, PER_PROPERTY_DEFAULT, PER_PROPERTY_MAX, REVISIONS } from '../sim/config.ts';
import type { CommandSpec, OptionSpec } from './command-spec.ts';
import { STRICT_OPTION } from './parse-options.ts';

/** Runs a fuzz makes unless --runs or --time says otherwise: deterministic, and under a minute on the SDK targets. */
export const DEFAULT_RUNS = 2_000;
/** Runs a fuzz makes over the wire unless --runs or --time says otherwise: each run takes real time. */
export const WIRE_DEFAULT_RUNS = 20;
/** Runs per phase check-store makes unless --runs says otherwise (check-store/check-event-store.ts's default). */
export const CHECK_STORE_HELP_RUNS = 200;

const bounds = (key: keyof typeof CONFIG_BOUNDS) => `${CONFIG_BOUNDS[key][0]}–${CONFIG_BOUNDS[key][1]}`;

const JSON_OPTION: OptionSpec = { type: 'boolean', help: 'print one JSON document instead of text' };
const OUT_OPTION: OptionSpec = { type: 'string', value: 'DIR', help: 'where found traces are written (default traces/found); checked before the run' };
const SEED_OPTION: OptionSpec = { type: 'string', value: 'S', help: `the seed: 1 to 64 letters, digits or . : _ - (default ${DEFAULT_CONFIG.seed})` };

/** The options of fuzz and replay that reach a server over the wire (cli/wire-options.ts reads them). */
const WIRE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  url: { type: 'string', value: 'URL', help: 'an MCP Streamable HTTP server over the wire instead of --target (loopback only unless --allow-remote)' },
  serve: { type: 'string', value: 'CMD', help: 'start the server with this shell command (it reads its port from $PORT), restart it for restarts, stop it at the end' },
  'serve-node': {
    type: 'string',
    value: 'CMD',
    help: 'start the server as several nodes (fuzz: --nodes N, default 2, behind --balancer; replay: as the trace names them), each process with its own $PORT and $RESUMECHECK_NODE and the environment as given (a shared $REDIS_URL, say); a node crashes (SIGKILL) and boots again as a fault',
  },
  'allow-remote': { type: 'boolean', help: 'allow a --url that is not loopback' },
  'settle-ms': { type: 'string', value: 'N', help: 'over the wire: ms with nothing arriving before an operation counts as settled, 1–10000' },
  'echo-tool': { type: 'string', value: 'NAME', help: 'over the wire, on a server without the probe tools: call its tool NAME (one string argument, whose value the result carries back) as the echo each call is sent as (default: a tool whose name says echo)' },
};

const WIRE_NOTE =
  'Over the wire (--url, --serve) real time decides what a run does: a violation that re-running its choices does not repeat is ' +
  'reported as flaky, unshrunk; the server\'s probe tools (docs/probe-tools.md) let every property be judged. ' +
  'A trace found over the wire names its server (serve:CMD, url:URL): replay reaches a url: again without flags, but a trace is ' +
  'data, never a command: the command of a serve: trace runs only when given as --serve CMD, or with --allow-trace-command ' +
  '(which prints what it will run first); without either, replay says what the trace would run and exits 2.';

/** The opt-in to run what a trace names (cli/trace-target.ts). */
const ALLOW_TRACE_COMMAND_OPTION: OptionSpec = {
  type: 'boolean',
  help: "run the command (serve:CMD) or import the module (module:PATH) the trace names, saying so first (default: exit 2 saying what it would run)",
};

const MODULE_PATHS =
  'Module targets (module:PATH, as check-store writes them) name the store module by its path relative to the directory the ' +
  'trace was made in (or absolute). The module is imported only when given as --target module:PATH[#EXPORT][+shared] (with ' +
  'its path from here: run from the project root for a CI artifact), or with --allow-trace-command.';

/** Deepest search `explore` offers: beyond it even the reduced search takes hours on the reference. */
export const EXPLORE_DEPTH_MAX = 12;
/** Sequences an exploration may run unless --runs-max says otherwise, so that none runs for ever. */
export const EXPLORE_RUNS_DEFAULT = 20_000_000;

/** `--protocol REV|mixed` (parsed and checked against the target's eras in cli/protocol-option.ts). */
export const PROTOCOL_OPTION = {
  type: 'string',
  value: 'REV',
  help: `the revision every simulated client speaks: ${REVISIONS.join(', ')}, or mixed (each run draws one per client, both eras in most runs) (default 2025-11-25; 2026-07-28 on a modern-only target)`,
} as const;

/** `--version-faults`: runs offer the version fault (config versionFaults). */
export const VERSION_FAULTS_OPTION = {
  type: 'boolean',
  help: 'a proxy sends some standalone GETs and DELETEs with an MCP-Protocol-Version no revision has, which must get 400 (unsupported-version-400); always on over the wire',
} as const;

/** Every command, in the order `resumecheck --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'fuzz',
    summary: 'random runs against a target; each violation is shrunk, printed and written as a trace',
    usage: [
      '--target T [--runs N | --time 30s] [--seed S] [--protocol REV|mixed] [--property P ...] [--first] [--strict[=advice]] [--workers N] [--out DIR] [--summary FILE] [--junit FILE] [options]',
      '--url URL | --serve "CMD" [--url URL] [--allow-remote] [--settle-ms N] [options]',
      '--serve-node "CMD" [--nodes N] [--balancer B] [options]',
    ],
    positionals: [],
    options: {
      target: { type: 'string', value: 'T', help: 'the system under test (required unless --url or --serve): `resumecheck targets` lists them, or module:PATH[#EXPORT][+shared]' },
      ...WIRE_OPTIONS,
      runs: { type: 'string', value: 'N', help: `runs to make, 1–100000000 (default ${DEFAULT_RUNS}; over the wire ${WIRE_DEFAULT_RUNS}); not with --time` },
      time: { type: 'string', value: 'D', help: 'run for a duration instead (30s, 2m, 1500ms, 1h): it bounds the whole command, shrinking included' },
      seed: SEED_OPTION,
      steps: { type: 'string', value: 'N', help: `steps per run at most, ${bounds('stepsMax')} (default ${DEFAULT_CONFIG.stepsMax})` },
      clients: { type: 'string', value: 'N', help: `simulated clients, ${bounds('clients')} (default ${DEFAULT_CONFIG.clients})` },
      window: { type: 'string', value: 'N', help: `events a server retains per stream, ${bounds('windowEventsMax')} (default ${DEFAULT_CONFIG.windowEventsMax})` },
      calls: { type: 'string', value: 'N', help: `tool calls per session at most, ${bounds('callsPerSessionMax')} (default ${DEFAULT_CONFIG.callsPerSessionMax})` },
      restarts: { type: 'string', value: 'N', help: `server restarts per run at most, ${bounds('restartsMax')} (default ${DEFAULT_CONFIG.restartsMax})` },
      protocol: PROTOCOL_OPTION,
      'version-faults': VERSION_FAULTS_OPTION,
      nodes: { type: 'string', value: 'N', help: 'deploy the target on N nodes (1–8) over one shared storage, behind --balancer; nodes crash and boot again one at a time' },
      balancer: { type: 'string', value: 'B', help: 'with --nodes: sticky, round-robin, random or failover (default round-robin)' },
      'store-lag': { type: 'string', value: 'N', help: "with --nodes: a node's writes reach the other nodes N operations later, 0–100 (default 0; the kit targets only)" },
      shard: { type: 'string', value: 'K/N', help: 'make only the K-th of N interleaved slices of the runs (for parallel CI jobs)' },
      property: { type: 'string', multiple: true, value: 'P', help: 'check only this property (repeatable); `resumecheck properties` lists them' },
      first: { type: 'boolean', help: 'stop at the first violation (default: go on until every checked property has one, or the budget ends)' },
      'per-property': { type: 'string', value: 'N', help: `counterexamples kept per property, each failing by another mechanism (its signature: the step's action kind, the answer that broke the rule, the property's word for how), 1–${PER_PROPERTY_MAX} (default ${PER_PROPERTY_DEFAULT})` },
      workers: { type: 'string', value: 'N', help: 'threads for the search and the shrinks (this one and N-1 workers), 1–64 (default: one per core, up to 4, on SDK and module targets; 1 otherwise and over the wire)' },
      'shrink-all': { type: 'boolean', help: 'over the wire: shrink every finding (default: only those that fail the run; each shrink candidate is a whole run against the server)' },
      out: OUT_OPTION,
      corpus: { type: 'string', value: 'DIR', help: 'stored traces replayed before the search, with the --out directory\'s (default traces/corpus)' },
      'no-corpus': { type: 'boolean', help: 'replay no stored traces but the --out directory\'s' },
      summary: { type: 'string', value: 'FILE', help: 'write the result as JSON (the --json document): config, seeds, runs, coverage, every finding and its file' },
      junit: { type: 'string', value: 'FILE', help: 'write JUnit XML: one test case per property, failing when violated' },
      'min-coverage': { type: 'string', value: 'P', help: 'exit 1 when the runs reach less than P % of the model\'s states, transitions and action kinds' },
      strict: STRICT_OPTION,
      json: JSON_OPTION,
      html: { type: 'string', value: 'FILE', help: 'also write one self-contained page for the whole run, every finding with its diagram; checked before the run' },
    },
    notes: [
      'Stored traces of the target (--corpus and --out) are replayed first: one that still fails is reported with its file, and ' +
        'that finding is not searched out and shrunk again. A property may fail by several mechanisms, told apart by a signature (the ' +
        'violating step\'s action kind, the answer that broke the rule, the property\'s own word for how): up to --per-property of ' +
        'them are kept, the first met. Each counterexample is written when found, then the shortest of each is shrunk, keeping its ' +
        'property and signature, and replaces it. With one --property the search ends once it has --per-property of them. For a given seed and ' +
        'run count the findings do not depend on --workers. SIGINT or SIGTERM stops within a second, keeping every trace found ' +
        'and writing the summary; a second one exits at once.',
      WIRE_NOTE,
      MODULE_PATHS,
    ],
    exitCodes: 'Exit codes: 0 no violation found (a note fails nothing), 1 a violation (found, or a stored trace still failing) or coverage below --min-coverage, 2 bad input (one line on stderr), 3 over the wire: the server failed mid-run and nothing was violated (the summary written), 130/143 stopped by SIGINT/SIGTERM with nothing violated',
    load: async () => (await import('./fuzz.command.ts')).runFuzz,
  },
  {
    name: 'replay',
    summary: 'run a trace file again and say whether its violation reproduces',
    usage: ['FILE [--target T] [--protocol REV|mixed] [--strict[=advice]] [--allow-trace-command] [--json]', 'FILE --url URL | --serve "CMD" [--tries K] [--json]'],
    positionals: [{ name: 'FILE', help: 'a trace written by fuzz or script' }],
    options: {
      target: { type: 'string', value: 'T', help: "replay against this target instead of the trace's own" },
      protocol: { ...PROTOCOL_OPTION, help: "replay with the clients speaking this revision instead of the trace's own (its config's protocol)" },
      ...WIRE_OPTIONS,
      tries: { type: 'string', value: 'K', help: 'over the wire: replay K times, 1–1000, and say how often the violation reproduced (default 1)' },
      strict: STRICT_OPTION,
      'allow-trace-command': ALLOW_TRACE_COMMAND_OPTION,
      json: JSON_OPTION,
    },
    notes: [WIRE_NOTE, MODULE_PATHS],
    exitCodes: 'Exit codes: 0 no violation (or only a note), 1 a violation reproduced (over the wire: in the last try), 2 bad input, among it a trace naming a command or module not named on the command line',
    load: async () => (await import('./replay.command.ts')).runReplay,
  },
  {
    name: 'script',
    summary: 'run a hand-written scenario: one action a line, as replay prints them (# starts a comment)',
    usage: ['FILE --target T [--seed S] [--protocol REV|mixed] [--version-faults] [--strict[=advice]] [--out DIR] [--json]'],
    positionals: [{ name: 'FILE', help: 'the scenario, one action description a line' }],
    options: {
      target: { type: 'string', value: 'T', help: 'the system under test (required)' },
      seed: SEED_OPTION,
      protocol: PROTOCOL_OPTION,
      'version-faults': VERSION_FAULTS_OPTION,
      strict: STRICT_OPTION,
      out: OUT_OPTION,
      json: JSON_OPTION,
    },
    notes: [],
    exitCodes: 'Exit codes: 0 the scenario violates nothing, 1 it violates a property (the trace written), 2 bad input (a line no enabled action matches included)',
    load: async () => (await import('./script.command.ts')).runScript,
  },
  {
    name: 'explore',
    summary: 'every sequence up to a depth, shortest first: the shortest counterexample, or none up to that depth',
    usage: ['--target T --depth D [--clients C] [--property P] [--seed S] [--protocol REV|mixed] [--strict[=advice]] [--runs-max N] [--no-reduction] [--workers N] [--workers-from W] [--out DIR] [--json]'],
    positionals: [],
    options: {
      target: { type: 'string', value: 'T', help: 'the system under test (required): a built-in target' },
      depth: { type: 'string', value: 'D', help: `steps per sequence at most, 1–${EXPLORE_DEPTH_MAX} (required)` },
      clients: { type: 'string', value: 'C', help: `simulated clients, ${bounds('clients')} (default ${DEFAULT_CONFIG.clients})` },
      property: { type: 'string', value: 'P', help: 'check only this property (a run is then not stopped by the others)' },
      seed: SEED_OPTION,
      protocol: PROTOCOL_OPTION,
      'runs-max': { type: 'string', value: 'N', help: `sequences to run at most, 1–1000000000 (default ${EXPLORE_RUNS_DEFAULT})` },
      'no-reduction': { type: 'boolean', help: 'run every sequence (default: equal worlds are explored once, where the target can key its state)' },
      workers: {
        type: 'string',
        value: 'N',
        help: `threads to share each depth of ${PARALLEL_LEVEL_MIN} worlds or more out among (this one and N-1 workers), 1–${EXPLORE_THREADS_MAX} (default: one per core, up to 4); workers start only for such a depth, and the outcome is the same for any N`,
      },
      strict: STRICT_OPTION,
      'workers-from': {
        type: 'string',
        value: 'W',
        help: `worlds a depth needs at least for the workers to share it out, 1–1000000000 (default ${PARALLEL_LEVEL_MIN}); the outcome is the same for any W`,
      },
      out: OUT_OPTION,
      json: JSON_OPTION,
    },
    notes: [
      'Exit 1 with a shortest counterexample written as a trace when its finding fails at the --strict level (a failure by default); ' +
        '0 when no sequence up to D steps violates anything, or the shortest finding is a warning, advice, a note or triggered by the ' +
        "client's own fault (it is written and printed all the same). " +
        'The reduction merges worlds whose canonical keys are equal (README: "Exhaustive exploration"); targets that cannot ' +
        'key their state (the SDK targets, planted targets with state of their own) get the full search.',
    ],
    exitCodes: 'Exit codes: 0 none up to the depth (or a budget spent first, which it says), 1 a shortest counterexample (written), 2 bad input, 130/143 stopped by SIGINT/SIGTERM (the depth cleared printed)',
    load: async () => (await import('./explore.command.ts')).runExplore,
  },
  {
    name: 'matrix',
    summary: 'every target and every completed-stream policy of the reference × every property: found (shrunk) or not found in N runs',
    usage: ['[--runs N] [--seed S] [--protocol REV|mixed] [--target T ...] [--property P ...] [--workers N] [--strict[=warning|advice]] [--json | --markdown]'],
    positionals: [],
    options: {
      runs: { type: 'string', value: 'N', help: `runs per cell, 1–10000000 (default ${DEFAULT_RUNS}, a fuzz's default): the same output for the same arguments` },
      seed: SEED_OPTION,
      protocol: { ...PROTOCOL_OPTION, help: `${PROTOCOL_OPTION.help}; rows that do not serve it are left out (a --target row that does not is bad input)` },
      target: { type: 'string', multiple: true, value: 'T', help: 'only these rows (repeatable): a built-in target or reference/POLICY' },
      property: { type: 'string', multiple: true, value: 'P', help: 'only these columns (repeatable)' },
      workers: { type: 'string', value: 'N', help: 'threads sharing the rows and the shrinks, 1–64 (default: one per core, up to 4); the output does not depend on it' },
      strict: STRICT_OPTION,
      json: JSON_OPTION,
      markdown: { type: 'boolean', help: 'print a Markdown table (as the README shows it)' },
    },
    notes: [
      'Each cell is what `fuzz --no-corpus --runs N --property P --first` would find: the same runs, each checking that property alone (a run is ' +
        'not stopped by another), its first violation shrunk as fuzz shrinks it, or "not found in N runs (S steps)". A row\'s runs are ' +
        'made once for all its cells and again only after a violation, so a cell never costs N runs of its own.',
      'Rows are printed as they finish. SIGINT or SIGTERM stops it: the rows and cells finished are printed (and --json written), ' +
        'the others marked interrupted.',
      'matrix exits 0 when no cell fails, 1 when a cell fails at the strictness asked for (a MUST by default), 2 on bad input, ' +
        '130 after SIGINT and 143 after SIGTERM (whatever was found).',
    ],
    load: async () => (await import('./matrix.command.ts')).runMatrix,
  },
  {
    name: 'targets',
    summary: 'list the built-in targets (reference, planted bugs, the SDK with its stores)',
    usage: ['[--json]'],
    positionals: [],
    options: { json: JSON_OPTION },
    notes: [],
    exitCodes: 'Exit codes: 0, or 2 on bad input.',
    load: async () => (await import('./targets.command.ts')).runTargets,
  },
  {
    name: 'policy-table',
    summary: 'the completed-stream policies measured as a trade: results delivered twice, lost, withheld, appends run again',
    usage: ['[--runs N] [--seed S] [--json]'],
    positionals: [],
    options: {
      runs: { type: 'string', value: 'N', help: 'runs per policy, 1–1000000 (default 2000); every policy gets the same seeded walks' },
      seed: SEED_OPTION,
      json: JSON_OPTION,
    },
    notes: [
      'Each policy runs on the target that differs from the reference by its policy alone (reference = replay-unsent, replay-tail, ' +
        'fresh-literal, fresh-with-reset), under the default config with clients that re-issue a call after a reset or a 404 (seed 004). ' +
        'No property is checked, so every run is played out; the counts are per call. The same seed and runs print the same table.',
    ],
    load: async () => (await import('./policy-table.command.ts')).runPolicyTable,
  },
  {
    name: 'findings-page',
    summary: "write an SDK line's findings page from a matrix of its targets and the corpus, each finding charged to a component",
    usage: ['--line 1|2 [--runs N] [--seed S] [--workers N] [--out DIR] [--json]', '--from DATA [--out DIR]'],
    positionals: [],
    options: {
      line: { type: 'string', value: 'L', help: 'the SDK line: 1 (@modelcontextprotocol/sdk) or 2 (@modelcontextprotocol/server)' },
      runs: { type: 'string', value: 'N', help: 'runs per matrix cell, 1–10000000 (default 2000, the matrix\'s)' },
      seed: SEED_OPTION,
      workers: { type: 'string', value: 'N', help: 'threads sharing the matrix (default one per core, up to 4); the page does not depend on it' },
      out: { type: 'string', value: 'DIR', help: 'where the page and its data (DIR/data/) go (default docs/findings)' },
      from: { type: 'string', value: 'DATA', help: 'render the page again from data kept (DIR/data/…json), without making it anew' },
      json: JSON_OPTION,
    },
    notes: [
      "The page (mcp-typescript-sdk-VERSION.md) is a rendering of its data (data/mcp-typescript-sdk-VERSION.json): the matrix of every " +
        "built-in target whose transport is the line's package, and every corpus trace of those targets, each finding charged to the " +
        'component whose replacement by a correct one makes its steps hold (the store, the router), to the transport when none does, ' +
        "to the harness when its simulated client broke a requestor's rule first. Both files are written atomically; SIGINT or SIGTERM writes neither.",
    ],
    exitCodes: 'Exit codes: 0 written, 2 bad input, 130 after SIGINT and 143 after SIGTERM (nothing written).',
    load: async () => (await import('./findings-page.command.ts')).runFindingsPage,
  },
  {
    name: 'properties',
    summary: 'list the properties checked, with their sources and kinds',
    usage: ['[--json]'],
    positionals: [],
    options: { json: JSON_OPTION },
    notes: [],
    exitCodes: 'Exit codes: 0, or 2 on bad input.',
    load: async () => (await import('./properties.command.ts')).runProperties,
  },
  {
    name: 'render',
    summary: 'show any trace as text, a Mermaid sequence diagram or one HTML page (fuzz, script, shrink, check-store)',
    usage: ['FILE [--format text|mermaid|html] [--out FILE]'],
    positionals: [{ name: 'FILE', help: "a trace file: the simulator's (fuzz, replay, script, shrink, check-store end to end) or a check-store contract trace" }],
    options: {
      format: { type: 'string', value: 'F', help: 'text (as fuzz prints it, the default), mermaid (a sequenceDiagram for Markdown) or html (a self-contained page)' },
      out: { type: 'string', value: 'FILE', help: 'write it to FILE (atomically) instead of printing it' },
    },
    notes: ['Each format is byte-identical from run to run. The page needs no network and reads without JavaScript; with it, step through the trace and highlight one session, call or connection.'],
    exitCodes: 'Exit codes: 0 rendered (whatever the trace\'s verdict), 2 bad input (an unreadable or malformed trace, an unwritable --out).',
    load: async () => (await import('./render.ts')).runRender,
  },
  {
    name: 'migrate-traces',
    summary: 'rewrite traces of format version 1 (steps as printed lines) as version 2 (steps as records), by replaying them',
    usage: ['PATH... [--accept-replay]'],
    positionals: [{ name: 'PATH', help: 'a trace file, or a directory: every trace under it', repeated: true }],
    options: {
      'accept-replay': { type: 'boolean', help: 'rewrite a trace whose replay reads otherwise but gives the recorded verdict at the same step, as its replay reads' },
    },
    notes: [
      'A rewrite is kept only when the replay reads exactly as the recorded lines and gives the recorded verdict. A trace whose target runs a command or a module it names (serve:, module:), or reaches a server (url:), is left as it is: a trace is data, never a command. Version 1 traces still replay and render, their steps as the lines they were.',
    ],
    exitCodes: 'Exit codes: 0 every version-1 trace rewritten or left for its target, 1 a replay read otherwise (that trace left as it was), 2 bad input.',
    load: async () => (await import('./migrate-traces.command.ts')).runMigrateTraces,
  },
  {
    name: 'shrink',
    summary: 'minimise a trace or a hand-written scenario while the same property still fails; the result goes beside it',
    usage: ['FILE [--target T] [--seed S] [--allow-trace-command]'],
    positionals: [{ name: 'FILE', help: 'a trace (X.json gives X.shrunk.json) or a scenario, one action a line (X.txt gives X.shrunk.txt)' }],
    options: {
      target: { type: 'string', value: 'T', help: "the target (required for a scenario; a trace's own by default)" },
      seed: { ...SEED_OPTION, help: `${SEED_OPTION.help}; for a scenario (a trace records its own)` },
      'allow-trace-command': { ...ALLOW_TRACE_COMMAND_OPTION, help: 'import the module (module:PATH) the trace names, saying so first (default: exit 2 saying what it would import)' },
    },
    notes: [],
    exitCodes: 'Exit codes: 1 the input violates a property (the shrunk result written), 0 it holds (nothing written), 2 bad input.',
    load: async () => (await import('./shrink.ts')).runShrink,
  },
  {
    name: 'check-store',
    summary: "check a server author's EventStore module: its contract, then end to end inside the SDK transport",
    usage: [
      'MODULE [--export NAME] [--shared] [--durable] [--strict[=advice]] [--runs N] [--seed S] [--call-timeout D] [--steps N] [--sessions N] [--streams N] [--events N] [--window N] [--restarts N] [--out DIR] [--json]',
      'MODULE [--export NAME] --replay FILE',
      '--replay FILE --allow-trace-command',
    ],
    positionals: [{ name: 'MODULE', help: 'a .js, .mjs or .ts file exporting a factory (context) => EventStore (.ts needs tsx installed)' }],
    options: {
      export: { type: 'string', value: 'NAME', help: "the factory's named export (default: the default export)" },
      shared: { type: 'boolean', help: 'one store per server incarnation shared by every session (default: one per session)' },
      durable: { type: 'boolean', help: 'storage and sessions outlive restarts (Redis, Durable Objects): pre-restart cursors of a live session are resumptions' },
      strict: STRICT_OPTION,
      'call-timeout': { type: 'string', value: 'D', help: 'real-clock time a store call may take before it counts as never settling (default 3s; at most 10m)' },
      steps: { type: 'string', value: 'N', help: 'contract steps per run, 1–10000' },
      sessions: { type: 'string', value: 'N', help: 'sessions per contract run, 1–64' },
      streams: { type: 'string', value: 'N', help: 'streams per session, 1–16' },
      events: { type: 'string', value: 'N', help: 'events per stream, 1–10000 (to reach a store\'s own caps and eviction)' },
      window: { type: 'string', value: 'N', help: 'events the end-to-end phase expects retained per stream, 1–10000' },
      restarts: { type: 'string', value: 'N', help: 'server restarts per run, 0–16' },
      runs: { type: 'string', value: 'N', help: `runs per phase, 1–1000000 (default ${CHECK_STORE_HELP_RUNS})` },
      seed: SEED_OPTION,
      out: OUT_OPTION,
      replay: { type: 'string', value: 'FILE', help: 'run a contract trace written by check-store again on MODULE (the store it names is imported only with --allow-trace-command)' },
      'allow-trace-command': { ...ALLOW_TRACE_COMMAND_OPTION, help: 'with --replay and no MODULE: import the module the trace names, saying so first (default: exit 2 saying what it would import)' },
      json: JSON_OPTION,
    },
    notes: [
      'A contract trace names the module by its path relative to the directory it was made in (or absolute). A trace is data, ' +
        'never a command: --replay FILE imports the module given as MODULE, or the one the trace names only with ' +
        '--allow-trace-command (which prints what it imports first); without either it exits 2 saying what the trace would import.',
    ],
    load: async () => (await import('./check-store.command.ts')).commandCheckStore,
  },
];

/** A command by name, or undefined. */
export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}
