// Free ports for served servers (targets/wire/server-process.ts freePorts): every node of a deployment gets one of its
// own. Ports asked for one after another, each freed before the next, were once the same for two nodes of one
// `--serve-node`, whose second could then not listen (EADDRINUSE); held until all are found, they are all others.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from './server-process.ts';

describe('freePorts', () => {
  it('gives as many ports as asked, each another, each free once given', async () => {
    for (let round = 0; round < 8; round += 1) {
      const ports = await freePorts(8);
      expect(ports).toHaveLength(8);
      expect(new Set(ports).size).toBe(8);
      // Free: each can be listened on at once.
      for (const port of ports) {
        const server = createServer();
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => resolve());
        });
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }
  });

  it('gives none for none asked', async () => {
    expect(await freePorts(0)).toEqual([]);
  });
});
