// Bad input from a user: one clear line, exit code 2, never a stack trace.

/** An error in what the user gave (flags, files, modules). The CLI prints its message alone and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses a duration such as `30s`, `2m`, `1500ms` or `1h` into milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d{1,9})(ms|s|m|h)$/.exec(text.trim());
  if (match === null) throw new UsageError(`${flag} takes a duration such as 30s, 2m or 1500ms, got ${JSON.stringify(text)}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  const value = Number(match[1]) * unit;
  if (value <= 0) throw new UsageError(`${flag} must be longer than 0`);
  return value;
}

/** Parses a whole number within bounds. */
export function parseWhole(text: string, flag: string, least: number, most: number): number {
  if (!/^\d{1,12}$/.test(text.trim())) throw new UsageError(`${flag} takes a whole number from ${least} to ${most}, got ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < least || value > most) throw new UsageError(`${flag} takes a whole number from ${least} to ${most}, got ${value}`);
  return value;
}
