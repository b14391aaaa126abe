// A built-in target whose package is not installed (the 2.x SDK is an optional peer) is bad input, one line.

import { describe, expect, it } from 'vitest';
import { missingPackageOf } from './resolve-target.ts';

describe('missingPackageOf', () => {
  it('names the package a failed import could not find, and nothing for other failures', async () => {
    const failed = await import('@modelcontextprotocol/no-such-package-for-resumecheck' as string).catch((error: unknown) => error);
    expect(missingPackageOf(failed)).toBe('@modelcontextprotocol/no-such-package-for-resumecheck');
    expect(missingPackageOf(Object.assign(new Error("Cannot find package 'zod' imported from /x.js"), { code: 'ERR_MODULE_NOT_FOUND' }))).toBe('zod');
    expect(missingPackageOf(Object.assign(new Error("Cannot find module '/x/y.js'"), { code: 'ERR_MODULE_NOT_FOUND' }))).toBeNull();
    expect(missingPackageOf(new Error('boom'))).toBeNull();
  });
});
