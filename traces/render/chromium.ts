// Headless Chromium from the Debian package, driven by playwright-core, for the page test and the README's screenshot.
// Offline and quiet: no GPU, no QUIC, no first-run, background, component-update or sync traffic, an empty profile.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Where Debian's `chromium` package installs the browser (`.ci/run` installs it when missing). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags the browser runs with. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** A running browser with its own empty profile; `close` stops it and removes the profile. */
export interface Chromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Why the browser cannot start here, or null when it can be tried. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is not installed (apt-get install -y chromium; .ci/run installs it)`;
}

/** Starts headless Chromium with an empty user-data-dir. Throws when it cannot start. */
export async function startChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'resumecheck-chromium-'));
  try {
    // launchPersistentContext passes the profile as --user-data-dir; launch() would make its own.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      timeout: 60_000,
      viewport: { width: 1280, height: 900 },
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
