// An in-process target offered only the faults a server over the wire can be driven through, so an in-process run
// and an over-the-wire run of the same server on the same seed make the same choices and can be compared.

import type { ActionKind } from '../../sim/config.ts';
import type { Target } from '../target.ts';

/** `target` with `kinds` never offered, as the wire target declares for its server. */
export function withUnsupported(target: Target, kinds: readonly ActionKind[]): Target {
  return {
    name: target.name,
    kind: target.kind,
    description: target.description,
    breaks: target.breaks,
    async open(options) {
      const run = await target.open(options);
      return {
        sync: run.sync,
        unsupported: [...(run.unsupported ?? []), ...kinds],
        boot: (incarnation, host) => run.boot(incarnation, host),
        close: () => run.close(),
      };
    },
  };
}
