// A target whose server answers through a wrapper: each incarnation's `handle` is replaced by `wrap`, which may call
// the server's own. Tests use it to record what a server is sent, or to make a server answer some requests otherwise.

import type { HttpRequest, HttpResponse, Target } from './target.ts';

/** How a wrapped server answers: `handle` is the server's own. */
export type HandleWrapper = (request: HttpRequest, handle: (request: HttpRequest) => HttpResponse | Promise<HttpResponse>) => HttpResponse | Promise<HttpResponse>;

/** `target`, each of its incarnations answering through `wrap`; everything else is the target's own. */
export function wrapHandle(target: Target, wrap: HandleWrapper): Target {
  return {
    ...target,
    open: async (options) => {
      const run = await target.open(options);
      return {
        ...run,
        boot: (incarnation, host) => {
          const server = run.boot(incarnation, host);
          const handle = server.handle.bind(server);
          return Object.assign(server, { handle: (request: HttpRequest) => wrap(request, handle) });
        },
      };
    },
  };
}
