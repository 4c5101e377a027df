// The contract suite's two shapes, apart from contract.ts so that contract-batch.ts can take them
// without importing contract.ts back (which imports it).
import type { EventBus, SubscribeOptions, Subscription } from "./bus.js";

/**
 * What an implementation provides to the contract suite. `createTopic` returns a topic name no other
 * test or run uses (created with `partitions` partitions where that means something).
 */
export interface EventBusContractHarness {
  createBus(): Promise<EventBus>;
  createTopic(prefix: string, partitions?: number): Promise<string>;
  /** A consumer group id no other test or run uses. */
  groupId(prefix: string): string;
  /** How long a test waits for deliveries; a real broker needs longer than memory. Default 20 s. */
  timeoutMs?: number;
}

/** What each contract case gets: a fresh bus, and subscriptions that stop after the test. */
export interface ContractContext {
  harness: EventBusContractHarness;
  bus: EventBus;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  waitFor(condition: () => boolean, what: string): Promise<void>;
  /** Runs after the test, before the bus closes (for subscriptions a test stops itself). */
  onCleanup(cleanup: () => Promise<void>): void;
}
