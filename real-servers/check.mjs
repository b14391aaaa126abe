#!/usr/bin/env node
// The eight npm MCP servers of issue 18, each started as its README (or its package's example) starts it, fuzzed by a
// default `resumecheck fuzz --serve` (seed 1, 20 runs), one after another on loopback ports, and what each run
// reported read against what is known of that server's code (real-servers/README.md says where each fact comes from):
// every true defect listed must be a failing finding, and no other finding may fail. Real time is part of every run,
// so this is a script a person runs, not a test of the suite (a full pass takes minutes).
//
//   npm ci --prefix real-servers   # once: the servers resumecheck does not depend on, pinned
//   npm run build                  # resumecheck's dist/ (its bin, and the probe tools the apps register)
//   node real-servers/check.mjs [--only NAME]... [--runs N] [--seed S] [--keep DIR]
//
// Prints a block per server (its command, the exit code, each finding with its severity and whether it fails, and
// what was expected of it), then a table; exit 0 when every server's findings are as expected, 1 otherwise, 2 on bad
// input. Findings' traces are written into a temporary folder, removed at the end unless --keep names one.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);

/**
 * The servers. `serve`: the shell command resumecheck starts (from the project root; it reads its port from $PORT
 * unless `url` fixes one). `fails`: the true defects, as the properties whose findings must fail, each with the
 * sentence that makes it one. Any other failing finding is unexpected: a false alarm to be read against the code, or
 * a defect to add here with its source.
 */
const SERVERS = [
  {
    name: 'server-everything',
    what: '@modelcontextprotocol/server-everything 2026.8.31, streamableHttp mode, its own tools (echo among them)',
    serve: 'exec node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp',
    fails: {
      'status-codes': 'a request with the ID of a session it no longer has gets 400; 2025-11-25: the server MUST respond with 404 Not Found',
      'well-formed-messages': 'its store keeps the priming placeholder {} as an event and replays it as a message',
      'no-cross-stream-replay': 'its store replays every later event of the session, whatever the stream: the server MUST NOT replay messages that would have been delivered on a different stream',
    },
  },
  {
    name: 'sdk-simpleStreamableHttp',
    what: "the MCP SDK 1.32.2's example simpleStreamableHttp, from its dist, its own tools",
    serve: 'MCP_PORT=$PORT exec node node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js',
    fails: {
      'well-formed-messages': "the example's InMemoryEventStore orders a replay by comparing event names, and replays the priming placeholder {} when it sorts after the cursor",
    },
  },
  {
    name: 'sdk-ssePollingExample',
    what: "the MCP SDK 1.32.2's example ssePollingExample, from its dist (port 3001, fixed in its code), its own tools",
    serve: 'exec node node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/ssePollingExample.js',
    url: 'http://127.0.0.1:3001/mcp',
    fails: {
      'well-formed-messages': 'the same InMemoryEventStore: the priming placeholder {} replayed as a message',
      'no-cross-session-delivery': "one InMemoryEventStore serves every session, and it finds a cursor's stream by the event ID alone: another session's cursor is replayed its stream",
    },
  },
  {
    name: 'fastmcp',
    what: "fastmcp 4.20.16 as its README starts it (httpStream), with an echo tool (real-servers/apps/fastmcp.mjs)",
    serve: 'exec node real-servers/apps/fastmcp.mjs',
    fails: {},
  },
  {
    name: 'mcp-proxy',
    what: 'mcp-proxy 6.7.19 fronting the MCP SDK 1.32.2 over stdio with the probe tools (real-servers/apps/sdk-stdio-probe.mjs)',
    serve: 'exec node node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs --port $PORT --host 127.0.0.1 -- node real-servers/apps/sdk-stdio-probe.mjs',
    fails: {},
  },
  {
    name: 'hono',
    what: '@hono/mcp 0.3.2 (its StreamableHTTPTransport and a MemoryEventStore per session) with the probe tools (real-servers/apps/hono.mjs)',
    serve: 'exec node real-servers/apps/hono.mjs',
    fails: {
      'unsupported-version-400': 'an unsupported MCP-Protocol-Version gets 404; 2025-06-18 and 2025-11-25: the server MUST respond with 400 Bad Request',
    },
  },
  {
    name: 'mcp-handler',
    what: "mcp-handler 2.4.0's createMcpHandler with an echo tool (examples/probe-server.mjs --mcp-handler)",
    serve: 'exec node examples/probe-server.mjs --mcp-handler',
    fails: {},
  },
  {
    name: 'mcp-framework',
    what: 'mcp-framework 0.2.22 as its README serves it (http-stream, its defaults), an echo tool that answers after 50 ms (real-servers/apps/mcp-framework/)',
    serve: 'exec node real-servers/apps/mcp-framework/index.js',
    fails: {
      'no-cross-session-delivery': "its transport sends every message of its one Server to every session's transport, which routes a response by its request ID alone: with two sessions' calls of one request ID in flight, session B receives session A's result (MUST NOT broadcast the same message across multiple streams)",
      'no-cross-stream-replay': 'the same broadcast seen from the stream: the result of session A\'s call arrives on the connection of session B\'s call (the run checked again without no-cross-session-delivery)',
    },
  },
];

function usage(message) {
  process.stderr.write(`real-servers/check.mjs: ${message}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({ options: { only: { type: 'string', multiple: true }, runs: { type: 'string' }, seed: { type: 'string' }, keep: { type: 'string' } }, strict: true }));
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const names = SERVERS.map((server) => server.name);
for (const name of values.only ?? []) if (!names.includes(name)) usage(`--only takes one of ${names.join(', ')}, got ${name}`);
if (values.runs !== undefined && !/^[1-9]\d{0,3}$/.test(values.runs)) usage(`--runs takes a whole number from 1 to 9999, got ${values.runs}`);
if (!existsSync(join(HERE, 'node_modules', 'mcp-framework'))) usage('the servers are not installed: run `npm ci --prefix real-servers` first');
if (!existsSync(join(ROOT, 'dist', 'cli', 'run.js'))) usage("resumecheck's dist/ is missing: run `npm run build` first");

const chosen = SERVERS.filter((server) => values.only === undefined || values.only.includes(server.name));
const scratch = values.keep ?? mkdtempSync(join(tmpdir(), 'resumecheck-real-servers-'));
mkdirSync(scratch, { recursive: true });

/** Runs one `fuzz --serve` to its end; resolves with its exit code, its output, its summary and how long it took. */
function fuzz(server) {
  const out = join(scratch, server.name);
  const summary = join(scratch, `${server.name}.summary.json`);
  rmSync(out, { recursive: true, force: true });
  rmSync(summary, { force: true });
  const args = ['bin/resumecheck.mjs', 'fuzz', '--serve', server.serve, '--seed', values.seed ?? '1', '--no-corpus', '--out', out, '--summary', summary];
  if (server.url !== undefined) args.push('--url', server.url);
  if (values.runs !== undefined) args.push('--runs', values.runs);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('close', (code) => {
      const document = existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')) : null;
      resolve({ code, text, document, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * How one server's run compares with what is known of it. A run that judged nothing (`? no verdict`: no session, no
 * call answered) is no pass, whatever it found.
 */
function judge(server, result) {
  const findings = result.document?.violations ?? [];
  const failing = new Set(findings.filter((finding) => finding.fails === true).map((finding) => finding.property));
  const missed = Object.keys(server.fails).filter((property) => !failing.has(property));
  const unexpected = [...failing].filter((property) => !(property in server.fails));
  const noVerdict = /^\? no verdict/m.test(result.text);
  return { findings, missed, unexpected, noVerdict, ok: result.document !== null && !noVerdict && missed.length === 0 && unexpected.length === 0 };
}

const rows = [];
for (const server of chosen) {
  process.stdout.write(`\n== ${server.name}: ${server.what}\n   fuzz --serve '${server.serve}'${server.url === undefined ? '' : ` --url ${server.url}`}\n`);
  const result = await fuzz(server);
  const verdict = judge(server, result);
  // The fuzz's own verdict line (what a user of it reads first), and what it says it did not judge.
  const said = result.text.split('\n').filter((line) => /^(✓ no violation|\? no verdict|nothing that fails|\d+ propert|\s+not judged)/.test(line));
  for (const line of said) process.stdout.write(`   ${line}\n`);
  process.stdout.write(`   exit ${result.code}, ${result.seconds.toFixed(1)} s\n`);
  for (const finding of verdict.findings) {
    process.stdout.write(`   ${finding.fails ? '✗' : '·'} ${finding.property} (${finding.severity}${finding.fails ? ', fails' : ''}${finding.flaky ? ', flaky' : ''})${finding.property in server.fails ? ' — expected' : ''}\n`);
  }
  for (const property of verdict.missed) process.stdout.write(`   MISSED ${property}: ${server.fails[property]}\n`);
  for (const property of verdict.unexpected) process.stdout.write(`   UNEXPECTED failure ${property}: read its trace against the server's code\n`);
  if (result.document === null) process.stdout.write(`   no summary was written; the output:\n${result.text.replace(/^/gm, '     ')}\n`);
  rows.push({ server: server.name, code: result.code, seconds: result.seconds, ...verdict });
}

process.stdout.write('\n| server | exit | time | failing findings | expected defects missed | unexpected failures |\n|---|---|---|---|---|---|\n');
for (const row of rows) {
  const failing = [...new Set(row.findings.filter((finding) => finding.fails).map((finding) => finding.property))].join(', ') || (row.noVerdict ? 'no verdict: nothing judged' : '—');
  process.stdout.write(`| ${row.server} | ${row.code} | ${row.seconds.toFixed(0)} s | ${failing} | ${row.missed.join(', ') || '—'} | ${row.unexpected.join(', ') || '—'} |\n`);
}
if (values.keep === undefined) rmSync(scratch, { recursive: true, force: true });
else process.stdout.write(`\ntraces and summaries kept in ${scratch}\n`);
process.exit(rows.every((row) => row.ok) ? 0 : 1);
