// Inside the SDK transport, the store's calls succeed where resumecheck's own store's do. Judged by check-store's
// end-to-end phase (a run that fails inside the transport, where sdk-core completes the same actions), not here.

import type { StoreProperty } from './store-property.ts';

export const storeCallsSucceed: StoreProperty = {
  name: 'store-calls-succeed',
  statement:
    "Inside the SDK transport, the store's calls succeed where resumecheck's own store's do: a rejected call fails the request or message at hand, and the SDK passes some of those failures on to the server's own code.",
  why: 'A store call that rejects inside the transport fails the request or the message being sent; the server\'s own code may get the error.',
  source: 'The SDK transport awaits every EventStore call and passes its rejection on (webStandardStreamableHttp.js).',
  severity: 'failure',
};
