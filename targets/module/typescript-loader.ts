// Importing a server author's store module. The compiled CLI runs on plain Node, which cannot load `.ts`: a `.ts` (or
// `.mts`/`.cts`) module is loaded by registering tsx's loader the first time Node refuses one. tsx is an optional peer
// dependency, found from resumecheck's own location first (the project that installed it), then from the working
// directory's project (resumecheck run with npx from elsewhere).

import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

/** Node cannot load the module and tsx cannot be found to load it: bad input, explained in one line. */
export class TypeScriptLoaderMissing extends Error {
  override readonly name = 'TypeScriptLoaderMissing';
}

interface TsxApi {
  register(): unknown;
}

async function loadTsx(): Promise<TsxApi> {
  try {
    return (await import('tsx/esm/api')) as TsxApi;
  } catch {
    // Not beside resumecheck: try the project in the working directory.
  }
  try {
    const resolved = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/esm/api');
    return (await import(pathToFileURL(resolved).href)) as TsxApi;
  } catch {
    throw new TypeScriptLoaderMissing('a .ts store module needs tsx to load it (npm install --save-dev tsx), or give the compiled .js file');
  }
}

/**
 * Imports the module at `url` (a file URL, maybe with a query) whose file is `path`. A TypeScript file Node refuses
 * is imported again (under a new URL) after tsx's loader is registered; the loader then stays registered for the process, as Node's
 * module map does.
 */
export async function importUserModule(url: string, path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  } catch (error) {
    const refused = (error as NodeJS.ErrnoException).code === 'ERR_UNKNOWN_FILE_EXTENSION';
    if (!refused || !TYPESCRIPT_EXTENSIONS.has(extname(path))) throw error;
  }
  (await loadTsx()).register();
  // Node keeps the refused import in its module map under this URL: the retry needs a URL of its own.
  const retry = `${url}${url.includes('?') ? '&' : '?'}loader=tsx`;
  return (await import(/* @vite-ignore */ retry)) as Record<string, unknown>;
}
