import type { BusMessage } from "@gw/events";
import type { Logger } from "@gw/logger";
import { type BackoffOptions, backoffDelay, sleep } from "./backoff.js";
import { kafkaErrorType } from "./errors.js";
import type { DiskSpool } from "./spool.js";

/** Sends one batch and resolves when the broker acknowledged all of it (acks=all). */
export type SendBatch = (messages: BusMessage[]) => Promise<void>;

export interface PublisherOptions {
  send: SendBatch;
  logger: Logger;
  /** How long a lone message waits for company before its batch is sent. */
  lingerMs: number;
  /** A batch closes at this many messages or bytes, whichever comes first. */
  batchSize: number;
  batchBytes: number;
  /** Memory queue bound; past it (or while the spool holds anything) events go to the spool. */
  maxQueued: number;
  spool?: DiskSpool | undefined;
  /**
   * Every event goes to the spool first, not only the overflow: the spool is then a write-ahead
   * journal, and an event survives a process killed right after publishing it (see `persisted`).
   */
  journal?: boolean;
  retry: BackoffOptions;
}

type Delivery = "sent" | "rejected" | "stopped";

/**
 * Error types that say "this message can never be written" rather than "try again later". Retrying
 * them would stall every event behind them forever, so such a message is isolated and logged.
 */
const PERMANENT_ERRORS = new Set([
  "MESSAGE_TOO_LARGE",
  "RECORD_LIST_TOO_LARGE",
  "INVALID_TOPIC_EXCEPTION",
  "INVALID_RECORD",
  "CORRUPT_MESSAGE",
]);

/**
 * The producer side of the bus: `publish` only enqueues, a single pump sends batches in order
 * (one batch in flight, resent unchanged until acknowledged, so order holds through failures).
 * While the broker is away the memory queue fills up to its bound, then events go to the on-disk
 * spool, and everything is replayed in publish order when the broker answers again.
 */
export class BatchingPublisher {
  private queue: BusMessage[] = [];
  private pumping: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private acknowledged = 0;
  private droppedCount = 0;
  private waiters: { target: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private readonly stopping = new AbortController();
  private accepting = true;
  private outageSince: number | undefined;
  private pumpFailures = 0;

  constructor(private readonly options: PublisherOptions) {
    // A spool left by an earlier process is replayed as soon as the broker answers.
    if ((options.spool?.pending ?? 0) > 0) this.schedule();
  }

  publish(message: BusMessage): void {
    if (!this.accepting) throw new Error("event bus is closed");
    const { spool, maxQueued, journal } = this.options;
    if (spool && (journal || spool.pending > 0 || this.queue.length >= maxQueued)) {
      if (!spool.append(message)) this.drop(message, "the memory queue and the on-disk spool are full");
    } else if (this.queue.length >= maxQueued) {
      this.drop(message, "the memory queue is full and no spool directory is configured");
    } else {
      this.queue.push(message);
    }
    this.schedule();
  }

  backlog(): number {
    return this.queue.length + (this.options.spool?.pending ?? 0);
  }

  /**
   * With a journal: resolves once every event published so far is written to the spool file (in the
   * operating system's hands: it survives the process, not the machine). Without one, at once: the
   * memory queue is all there is, and nothing on the request path waits for the broker.
   */
  persisted(): Promise<void> {
    const { spool, journal } = this.options;
    return journal && spool ? spool.written() : Promise.resolve();
  }

  /** Events refused because every buffer was full (each one was logged as an error). */
  dropped(): number {
    return this.droppedCount;
  }

  /** Resolves once everything published before the call is acknowledged by the broker. */
  flush(): Promise<void> {
    const target = this.acknowledged + this.backlog();
    if (this.acknowledged >= target) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ target, resolve, reject }));
    this.startPump();
    return done;
  }

  /**
   * Stops accepting events and waits up to `timeoutMs` for the backlog to drain. What is still
   * undelivered then goes to the front of the spool for the next start, or is logged as lost when
   * there is no spool.
   */
  async close(timeoutMs: number): Promise<void> {
    this.accepting = false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    // Whether it drained or timed out, what is left in the queue is handled the same way below.
    await Promise.race([
      this.flush().then(
        () => true,
        () => false,
      ),
      timedOut,
    ]);
    clearTimeout(timer);
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.pumping;
    const { spool, logger } = this.options;
    if (!spool) {
      if (this.queue.length > 0)
        logger.error(
          { events: this.queue.length },
          "Kafka did not take every event before shutdown and no spool is configured: events lost",
        );
    } else {
      await spool.prepend(this.queue);
      await spool.flushWrites();
      if (spool.pending > 0)
        logger.warn(
          { events: spool.pending, spool: spool.dataFile },
          "Kafka did not take every event before shutdown; the rest is spooled for the next start",
        );
    }
    this.queue = [];
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new Error("event bus closed before every event was delivered"));
  }

  private drop(message: BusMessage, reason: string): void {
    this.droppedCount++;
    // Never silent: the event's routing data goes to the error log so it can be reconstructed.
    this.options.logger.error(
      { topic: message.topic, key: message.key, headers: message.headers, dropped: this.droppedCount },
      `event dropped: ${reason}`,
    );
  }

  private schedule(): void {
    if (this.pumping || this.timer || this.stopping.signal.aborted) return;
    // A full batch leaves at once, but on a later tick: never on the publisher's call stack.
    const delay =
      this.pumpFailures > 0
        ? backoffDelay(this.pumpFailures, this.options.retry)
        : this.fullBatchWaiting()
          ? 0
          : this.options.lingerMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startPump();
    }, delay);
  }

  private startPump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pumping || this.stopping.signal.aborted) return;
    this.pumping = this.pump()
      .then(() => {
        this.pumpFailures = 0;
      })
      .catch((error: unknown) => {
        // The spool's disk, not the broker, failed: retry with backoff rather than in a tight loop.
        this.pumpFailures++;
        this.options.logger.error({ err: error, backlog: this.backlog() }, "event publisher failed");
      })
      .finally(() => {
        this.pumping = undefined;
        if (this.backlog() > 0) this.schedule();
      });
  }

  /**
   * Sends batches while full ones wait; a partial one is left to the next linger (schedule), so under
   * a steady trickle every produce request carries what arrived in a linger, not whatever came in
   * during the previous request's round trip (as Kafka's own producer does with linger.ms).
   */
  private async pump(): Promise<void> {
    const { spool } = this.options;
    for (let first = true; !this.stopping.signal.aborted; first = false) {
      if (!first && !this.fullBatchWaiting()) return;
      if (this.queue.length > 0) {
        const batch = this.takeBatch(this.queue);
        if (!(await this.deliverBatch(batch))) return;
        this.queue.splice(0, batch.length);
        this.acknowledge(batch.length);
      } else if (spool && spool.pending > 0) {
        const batch = await spool.peek(this.options.batchSize);
        if (batch.messages.length === 0) return;
        if (!(await this.deliverBatch(batch.messages))) return;
        await spool.ack(batch);
        this.acknowledge(batch.messages.length);
      } else {
        return;
      }
    }
  }

  private fullBatchWaiting(): boolean {
    return this.backlog() >= this.options.batchSize;
  }

  private takeBatch(queue: BusMessage[]): BusMessage[] {
    const { batchSize, batchBytes } = this.options;
    let bytes = 0;
    let count = 0;
    while (count < queue.length && count < batchSize) {
      bytes += (queue[count] as BusMessage).value.byteLength;
      if (count > 0 && bytes > batchBytes) break;
      count++;
    }
    return queue.slice(0, count);
  }

  /** False when stopped before the batch went out; a rejected message is logged and skipped. */
  private async deliverBatch(batch: BusMessage[]): Promise<boolean> {
    const outcome = await this.deliver(batch);
    if (outcome !== "rejected") return outcome === "sent";
    for (const message of batch) {
      const single = batch.length === 1 ? outcome : await this.deliver([message]);
      if (single === "stopped") return false;
      if (single === "rejected") this.drop(message, "the broker refuses this message permanently");
    }
    return true;
  }

  private async deliver(batch: BusMessage[]): Promise<Delivery> {
    for (let attempt = 1; !this.stopping.signal.aborted; attempt++) {
      try {
        await this.options.send(batch);
        if (this.outageSince !== undefined) {
          this.options.logger.info(
            { downMs: Date.now() - this.outageSince, backlog: this.backlog() },
            "Kafka accepts events again; replaying the backlog",
          );
          this.outageSince = undefined;
        }
        return "sent";
      } catch (error) {
        if (isPermanent(error)) return "rejected";
        this.reportFailure(error, attempt);
        await sleep(backoffDelay(attempt, this.options.retry), this.stopping.signal);
      }
    }
    return "stopped";
  }

  private reportFailure(error: unknown, attempt: number): void {
    if (this.outageSince === undefined) {
      this.outageSince = Date.now();
      this.options.logger.error(
        { err: error, backlog: this.backlog() },
        "cannot deliver events to Kafka; keeping them (memory queue, then spool) and retrying",
      );
    } else if (attempt % 20 === 0) {
      this.options.logger.warn(
        { err: error, backlog: this.backlog(), downMs: Date.now() - this.outageSince },
        "Kafka still unreachable",
      );
    }
  }

  private acknowledge(count: number): void {
    this.acknowledged += count;
    const done = this.waiters.filter((waiter) => waiter.target <= this.acknowledged);
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.target > this.acknowledged);
    for (const waiter of done) waiter.resolve();
  }
}

function isPermanent(error: unknown): boolean {
  const type = kafkaErrorType(error);
  return type !== undefined && PERMANENT_ERRORS.has(type);
}
