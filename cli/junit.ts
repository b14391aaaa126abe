// The fuzz's result as JUnit XML, which CI systems show as tests: one test suite per target, one test case per
// property checked, failing when the property was violated (a new finding or a stored one that still fails).

/** One property's verdict, as JUnit needs it. */
export interface JunitCase {
  readonly property: string;
  /** Null when the property held. */
  readonly failure: { readonly message: string; readonly type: string; readonly details: string } | null;
}

/** Escapes text for an XML attribute or element; drops characters XML 1.0 cannot carry at all. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** A JUnit XML document for one target's fuzz. */
export function junitXml(options: { readonly target: string; readonly elapsedMs: number; readonly cases: readonly JunitCase[] }): string {
  const seconds = (options.elapsedMs / 1000).toFixed(3);
  const failures = options.cases.filter((entry) => entry.failure !== null).length;
  const suite = `resumecheck fuzz ${options.target}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="resumecheck" tests="${options.cases.length}" failures="${failures}" errors="0" time="${seconds}">`,
    `  <testsuite name="${escapeXml(suite)}" tests="${options.cases.length}" failures="${failures}" errors="0" skipped="0" time="${seconds}">`,
  ];
  for (const entry of options.cases) {
    const opening = `    <testcase classname="${escapeXml(options.target)}" name="${escapeXml(entry.property)}" time="0"`;
    if (entry.failure === null) {
      lines.push(`${opening}/>`);
      continue;
    }
    lines.push(`${opening}>`);
    lines.push(`      <failure message="${escapeXml(entry.failure.message)}" type="${escapeXml(entry.failure.type)}">${escapeXml(entry.failure.details)}</failure>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
