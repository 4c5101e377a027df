import {
  type ConsumedMessage,
  DEFAULT_MAX_BATCH_SIZE,
  deliverBatch,
  deliverWithRetries,
  type MessageHandler,
  type SubscribeOptions,
  subscriptionHandler,
} from "@gw/events";
import { recordDeadLetter } from "@gw/metrics";
import type { StoredMessage } from "./store.js";

/** What a group's dispatcher needs of the bus around it. */
export interface DispatcherDeps {
  /** The next stored events of the topic after `afterId`, in id order (from the topic's shared reader). */
  take(afterId: bigint, limit: number): Promise<StoredMessage[]>;
  /** Resolves when new events of the topic may be there (a commit, or the idle poll). */
  changed(): Promise<void>;
  /** Publishes a dead letter (through the outbox, so it is kept like any event). */
  deadLetter(topic: string, key: string, value: Uint8Array, headers: Record<string, string>): void;
  /** Told after each message or batch the group is done with (handled or dead-lettered). */
  applied(id: bigint): void;
}

/**
 * One consumer group on one topic: takes the topic's events after the group's position (from the
 * topic's one reader, shared by its groups), hands them to the group's handler with the bus contract's
 * retries and dead-lettering, and advances only after the handler resolved. The table is the log, so a
 * restarted process resumes where the group's saved position says and nothing lives only in memory.
 */
export class GroupDispatcher {
  private running = true;
  private wake: (() => void) | undefined;
  private readonly loop: Promise<void>;

  constructor(
    private readonly options: SubscribeOptions,
    private position: bigint,
    private readonly deps: DispatcherDeps,
  ) {
    subscriptionHandler(options);
    // Started on a later tick: subscribing never runs a handler on the caller's stack.
    this.loop = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run());
  }

  /** Stops after the message or batch in hand; resolves when its handler finished. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const chosen = subscriptionHandler(this.options);
    const limit = chosen.kind === "batch" ? (this.options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE) : 100;
    while (this.running) {
      const rows = await this.lingered(await this.readOrWait(limit), limit);
      if (!rows) continue;
      const messages = rows.map(consumed);
      const finished =
        chosen.kind === "batch"
          ? await deliverBatch(chosen.handler, messages, {
              deliverOne: (message, single) => this.deliver(message, single),
              markDone: (message) => this.advance(BigInt(message.offset)),
            })
          : await this.deliverEach(messages, chosen.handler);
      if (!finished) return;
    }
  }

  private async deliverEach(messages: ConsumedMessage[], handler: MessageHandler): Promise<boolean> {
    for (const message of messages) {
      if (!this.running) return false;
      if (!(await this.deliver(message, handler))) return false;
      this.advance(BigInt(message.offset));
    }
    return true;
  }

  /** Rows after the position, or undefined after waiting for new ones (or a stop). */
  private async readOrWait(limit: number): Promise<StoredMessage[] | undefined> {
    // Taken before the read: a commit during the read wakes this reader at once.
    const changed = this.deps.changed();
    let rows: StoredMessage[] = [];
    try {
      rows = await this.deps.take(this.position, limit);
    } catch {
      // The database is away for a moment: wait as if idle, then read again.
    }
    if (rows.length > 0) return rows;
    if (!this.running) return undefined;
    await this.waitFor(changed);
    return undefined;
  }

  /**
   * A lingering group (`lingerMs`, the usage consumers) takes a partial batch only once its first rows
   * waited that long, as a Kafka fetch with a linger is answered: until then each commit of the writer
   * wakes it to look again (from the topic's shared buffer, no query). Without it every small commit
   * became a transaction of its own in each usage consumer; a full batch goes at once.
   */
  private async lingered(
    rows: StoredMessage[] | undefined,
    limit: number,
  ): Promise<StoredMessage[] | undefined> {
    const linger = this.options.lingerMs ?? 0;
    if (!rows || linger <= 0) return rows;
    const deadline = Date.now() + linger;
    let held = rows;
    while (this.running && held.length < limit) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await this.waitFor(this.deps.changed(), remaining);
      try {
        held = await this.deps.take(this.position, limit);
      } catch {
        // The database is away for a moment: hand over what is held.
        break;
      }
    }
    // Stopped while gathering: nothing of it was applied, so the next start hands it over again.
    return this.running ? held : undefined;
  }

  /** Resolves with `changed` (the writer's next commit), after `ms` if given, or at a stop: the first. */
  private async waitFor(changed: Promise<void>, ms?: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<void>((resolve) => {
      this.wake = resolve;
      if (ms !== undefined) timer = setTimeout(resolve, ms);
    });
    await Promise.race([stopped, changed]);
    clearTimeout(timer);
  }

  private advance(id: bigint): void {
    if (id <= this.position) return;
    this.position = id;
    this.deps.applied(id);
  }

  /** True when the message is done with: handled, or dead-lettered after its last attempt. */
  private deliver(message: ConsumedMessage, handler: MessageHandler): Promise<boolean> {
    return deliverWithRetries(message, handler, {
      topic: this.options.topic,
      groupId: this.options.groupId,
      maxAttempts: this.options.maxAttempts,
      deadLetter: (topic, key, value, headers) => {
        recordDeadLetter("outbox", this.options.topic, this.options.groupId);
        this.deps.deadLetter(topic, key, value, headers);
      },
      running: () => this.running,
    });
  }
}

function consumed(row: StoredMessage): ConsumedMessage {
  return {
    topic: row.topic,
    key: row.key,
    value: row.value,
    headers: { ...row.headers },
    partition: 0,
    offset: row.id.toString(),
  };
}
