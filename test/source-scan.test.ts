// The determinism rule, enforced: clocks, timers and ambient randomness appear only in the clock and randomness
// modules listed here by path, each with its reason, so a run stays a pure function of its seed and choices. A file
// is exempt for being on the list, never for its name.

import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['core', 'model', 'sim', 'targets', 'probe', 'properties', 'traces', 'cli', 'event-store', 'check-store'];
/** The only files that may use a banned name, by path, and why each must. */
const EXEMPT: Readonly<Record<string, string>> = {
  'sim/clock.ts': 'yields a macrotask turn so an in-process system finishes reacting; measures wall time for --time',
  'sim/levels/clock.ts': "the client level's simulated clock: replaces the SDK clients' timers and Date.now for one run",
  'targets/module/clock.ts': "store checking's real clock: a store doing I/O lives in real time, bounded by --call-timeout",
  'targets/module/random.ts': "node:crypto's randomness, seeded for one run of a user's store module",
  'targets/sdk/random.ts': "the SDK's own randomness (randomUUID, Date.now, Math.random), seeded for one run",
  'targets/wire/clock.ts': 'the wire target waits for a server on a socket: a bounded wait and a quiet interval',
  'event-store/random.ts': "the event store's epoch token when created without one (simulations pass their own)",
  'probe/random.ts': "the served probe server's session IDs, a real server's: the simulator never depends on their values",
  'probe/clock.ts': "the served SDK app's echo waits for the next millisecond, and its store's writes for their latency (--store-write-latency-ms), a real server's time: the simulator never reads it",
};

/** Each banned name and the pattern that finds it in code. */
const BANNED: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }> = [
  { name: 'Math.random', pattern: /\bMath\s*\.\s*random\b/ },
  { name: 'Date.now', pattern: /\bDate\s*\.\s*now\b/ },
  { name: 'new Date', pattern: /\bnew\s+Date\b/ },
  { name: 'performance.now', pattern: /\bperformance\s*\.\s*now\b/ },
  { name: 'randomUUID', pattern: /\brandomUUID\b/ },
  { name: 'setTimeout', pattern: /\bsetTimeout\b/ },
  { name: 'setInterval', pattern: /\bsetInterval\b/ },
  { name: 'setImmediate', pattern: /\bsetImmediate\b/ },
  { name: 'crypto.getRandomValues', pattern: /\bgetRandomValues\b/ },
  { name: 'randomBytes', pattern: /\brandomBytes\b/ },
];

/** One banned use found. */
interface Finding {
  readonly file: string;
  readonly line: number;
  readonly name: string;
}

/**
 * Blanks out comments, keeping every newline so line numbers stay right. Strings and template literals are kept
 * (a banned call inside `${...}` is code); the scan of a comment's words would only punish explaining the rule.
 */
function stripComments(source: string): string {
  let out = '';
  let index = 0;
  // Open template literals; each entry counts the braces opened inside its current `${ }` expression.
  const templates: number[] = [];
  let inTemplateText = false;
  while (index < source.length) {
    const char = source[index]!;
    const next = source[index + 1];
    if (inTemplateText) {
      out += char;
      if (char === '\\') {
        out += next ?? '';
        index += 2;
        continue;
      }
      if (char === '`') {
        inTemplateText = false;
        templates.pop();
      } else if (char === '$' && next === '{') {
        out += '{';
        index += 2;
        inTemplateText = false;
        continue;
      }
      index += 1;
      continue;
    }
    if (char === '/' && next === '/') {
      while (index < source.length && source[index] !== '\n') index += 1;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = source.indexOf('*/', index + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(index, stop).replace(/[^\n]/g, ' ');
      index = stop;
      continue;
    }
    if (char === "'" || char === '"') {
      let end = index + 1;
      while (end < source.length && source[end] !== char && source[end] !== '\n') end += source[end] === '\\' ? 2 : 1;
      out += source.slice(index, end + 1);
      index = end + 1;
      continue;
    }
    if (char === '`') {
      templates.push(0);
      inTemplateText = true;
      out += char;
      index += 1;
      continue;
    }
    if (templates.length > 0 && char === '{') templates[templates.length - 1]! += 1;
    if (templates.length > 0 && char === '}') {
      if (templates[templates.length - 1] === 0) {
        // The end of a `${ }` expression: back to the template's text.
        inTemplateText = true;
        out += char;
        index += 1;
        continue;
      }
      templates[templates.length - 1]! -= 1;
    }
    out += char;
    index += 1;
  }
  return out;
}

/** Every banned use in one file's text (its path relative to the root); none when the file is on the exempt list. */
function scanSource(file: string, source: string): Finding[] {
  if (Object.hasOwn(EXEMPT, file.split(sep).join('/'))) return [];
  const findings: Finding[] = [];
  stripComments(source)
    .split('\n')
    .forEach((text, index) => {
      for (const { name, pattern } of BANNED) if (pattern.test(text)) findings.push({ file, line: index + 1, name });
    });
  return findings;
}

/** How a finding is reported. */
function describeFinding(finding: Finding): string {
  return `${finding.file}:${finding.line}: ${finding.name} is banned here, use the run's PRNG (sim/prng.ts) or the clock module (sim/clock.ts)`;
}

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    // check-store/fixtures holds server authors' stores under test: their clocks, timers and randomness are what the
    // checker replaces with seeded ones or waits for in real time, not the project's own code.
    if (entry.name === 'node_modules' || (entry.name === 'fixtures' && basename(directory) === 'check-store')) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

describe('source scan: no clocks, timers or ambient randomness outside the listed clock and randomness modules', () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).map((path) => relative(ROOT, path));

  it('finds the sources it must scan', () => {
    expect(files).toContain(join('sim', 'engine.ts'));
    expect(files).toContain(join('core', 'decide.ts'));
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((file) => file.endsWith('.test.ts'))).toEqual([]);
  });

  it('no banned name appears in any scanned file', () => {
    const findings = files.flatMap((file) => scanSource(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(findings.map(describeFinding)).toEqual([]);
  });

  it('self-test: catches each banned name planted in code, with its line', () => {
    for (const { name } of BANNED) {
      const call = name === 'new Date' ? 'new Date()' : `${name}()`;
      const findings = scanSource('sim/planted.ts', `// A planted occurrence.\nconst a = 1;\nexport const b = ${call};\n`);
      expect(findings.map(describeFinding)).toEqual([
        `sim/planted.ts:3: ${name} is banned here, use the run's PRNG (sim/prng.ts) or the clock module (sim/clock.ts)`,
      ]);
    }
  });

  it('self-test: catches uses inside template expressions and after strings with slashes', () => {
    const source = [
      'const url = "http://example.com"; const t = Date.now();',
      'const label = `run ${Math.random()} at ${`${performance.now()}`}`;',
      "const path = 'a/*b'; setTimeout(f, 1);",
    ].join('\n');
    expect(scanSource('targets/x.ts', source).map((finding) => `${finding.line} ${finding.name}`)).toEqual([
      '1 Date.now',
      '2 Math.random',
      '2 performance.now',
      '3 setTimeout',
    ]);
  });

  it('self-test: ignores comments, and exempts the listed paths only, not their names elsewhere', () => {
    const commented = '// Math.random is never used here\n/* nor Date.now,\n   nor new Date */ const x = 1;\nconst y = 2; // setTimeout\n';
    expect(scanSource('core/x.ts', commented)).toEqual([]);
    const planted = 'export const seed = Math.random();\n';
    expect(scanSource('targets/sdk/random.ts', planted)).toEqual([]);
    expect(scanSource('sim/clock.ts', planted)).toEqual([]);
    for (const elsewhere of ['sim/random.ts', 'sim/prng.ts', 'targets/reference/clock.ts', 'check-store/clock.ts']) expect(scanSource(elsewhere, planted)).toHaveLength(1);
  });

  it('self-test: every exempt file exists and uses a banned name (an exemption nothing needs is removed)', () => {
    for (const file of Object.keys(EXEMPT)) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      expect(scanSource(`${file}.copy.ts`, source).length, file).toBeGreaterThan(0);
    }
  });

  it('self-test: the allowed modules do use what they are allowed to (so the scan reads real files)', () => {
    const clock = readFileSync(join(ROOT, 'sim', 'clock.ts'), 'utf8');
    expect(scanSource('sim/clock-copy.ts', clock).map((finding) => finding.name)).toContain('performance.now');
  });
});
