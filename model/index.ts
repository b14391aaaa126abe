// The model: XState statecharts that specify what may happen next, compiled to tables for the hot loop.

import { clientMachine } from './client.machine.ts';
import { type CompiledMachine, compileMachine } from './compile.ts';
import { connectionMachine } from './connection.machine.ts';
import { serverMachine } from './server.machine.ts';
import { sessionMachine } from './session.machine.ts';
import { streamMachine } from './stream.machine.ts';

export { accepts, step, compileMachine, type CompiledMachine } from './compile.ts';
export { clientMachine, connectionMachine, serverMachine, sessionMachine, streamMachine };


/** The compiled machines, built once when the module loads. */
export const MODEL = {
  stream: compileMachine<'open' | 'completed' | 'aborted' | 'superseded', 'emit' | 'complete' | 'abort' | 'supersede'>(streamMachine),
  session: compileMachine<
    'initialising' | 'live' | 'expired' | 'deleted' | 'lost',
    'established' | 'refused' | 'use' | 'expire' | 'delete' | 'restart'
  >(sessionMachine),
  server: compileMachine<'faulty' | 'healing', 'serve' | 'restart' | 'heal'>(serverMachine),
  connection: compileMachine<
    'pending' | 'attached' | 'losing' | 'answered' | 'cut' | 'ended' | 'closed',
    'stream' | 'answer' | 'frame' | 'cut' | 'end' | 'close' | 'drop' | 'rival' | 'loseTail'
  >(connectionMachine),
  client: compileMachine<
    'idle' | 'initialising' | 'live' | 'dead' | 'stateless',
    'initialize' | 'initialized' | 'initializeFailed' | 'request' | 'notFound' | 'deleted' | 'speakModern' | 'call'
  >(clientMachine),
} as const;

/** Any compiled machine of the model. */
export type ModelMachine = CompiledMachine<string, string>;
