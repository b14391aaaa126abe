// The README's `check-store ./my-store.ts --export makeStore` (test/readme-examples.test.ts): an EventStore factory
// under the name the example gives, here the SDK's example InMemoryEventStore, one per session.

export { default as makeStore } from '../../check-store/fixtures/sdk-example-store.ts';
