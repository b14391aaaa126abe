// A 2026-07-28-only server as the 2.x documentation gives it: `createMcpHandler(factory, { legacy: 'reject' })`
// alone, every request to it. No session, no event store, no legacy transport: 2025-era requests get its rejections.

import { createSdkTarget } from '../sdk/index.ts';
import type { SdkEventStores } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { MODERN_ONLY } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** A modern-only endpoint holds no session, so it never asks for a session's store. */
const NO_STORES: SdkEventStores = {
  forSession() {
    throw new Error('assertion: the modern-only endpoint asked for a session store (it routes nothing to a legacy transport)');
  },
  endSession() {},
};

/** The 2.x modern-only endpoint: `createMcpHandler(factory, { legacy: 'reject' })`, a fresh McpServer per request. */
export const sdk2ModernTarget: Target = createSdkTarget({
  ...SDK2_TARGET_INFOS.sdk2Modern,
  line: SDK_2_LINE,
  routing: MODERN_ONLY,
  createStores: () => NO_STORES,
});
