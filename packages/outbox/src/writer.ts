import type { BusMessage } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { OutboxStore } from "./store.js";

export interface OutboxWriterOptions {
  store: OutboxStore;
  logger: Logger;
  /** Most events per insert statement. */
  batchSize: number;
  /** Told after each committed batch which topics got rows, so their readers look at once. */
  written(topics: ReadonlySet<string>): void;
}

interface Waiter {
  target: number;
  resolve(): void;
}

const RETRY_MS = { initial: 50, max: 2_000 };

/**
 * The outbox's single writer: published events queue in memory for the moment it takes to insert
 * them; one insert is in flight at a time and takes everything queued meanwhile as one multi-row
 * statement, so concurrent requests share a round trip and row ids follow commit order (a reader
 * that sees id n has every earlier id of this process). A failed insert is retried with backoff,
 * the batch unchanged; nothing is dropped while the process lives.
 */
export class OutboxWriter {
  private queue: BusMessage[] = [];
  private published = 0;
  private committed = 0;
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private failures = 0;

  constructor(private readonly options: OutboxWriterOptions) {}

  enqueue(message: BusMessage): void {
    // Copies, as a broker would: a caller that reuses its buffer must not change what was published.
    this.queue.push({
      topic: message.topic,
      key: message.key,
      value: message.value.slice(),
      headers: { ...message.headers },
    });
    this.published++;
    this.start();
  }

  /** Events queued but not yet committed. */
  backlog(): number {
    return this.queue.length;
  }

  /** Resolves once every event enqueued before the call is committed. */
  persisted(): Promise<void> {
    const target = this.published;
    if (this.committed >= target) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ target, resolve }));
  }

  private start(): void {
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      if (this.queue.length > 0) this.start();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.options.batchSize);
      try {
        await this.options.store.append(batch);
        this.failures = 0;
      } catch (error) {
        this.failures++;
        this.options.logger.error(
          { err: error, backlog: this.queue.length, attempt: this.failures },
          "outbox insert failed; retrying",
        );
        const delay = Math.min(RETRY_MS.max, RETRY_MS.initial * 2 ** (this.failures - 1));
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      this.queue.splice(0, batch.length);
      this.committed += batch.length;
      this.options.written(new Set(batch.map((message) => message.topic)));
      this.release();
    }
  }

  private release(): void {
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.target <= this.committed) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }
}
