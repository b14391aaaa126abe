// The decision core: pure, synchronous, no I/O, no clock, no randomness.
export * from './event-id.ts';
export * from './state.ts';
export * from './decide.ts';
export * from './policy.ts';
