import { deliverBatch } from "./batch.js";
import type {
  BatchHandler,
  BusMessage,
  ConsumedMessage,
  EventBus,
  MessageHandler,
  SubscribeOptions,
  Subscription,
} from "./bus.js";
import { DEFAULT_MAX_BATCH_SIZE, subscriptionHandler } from "./bus.js";
import { deliverWithRetries } from "./retry.js";

/**
 * One topic's retained messages: `messages[i]` has offset `base + i`. Messages every group has
 * committed are dropped (in chunks, so trimming stays amortised O(1) per message); a topic nobody
 * consumes keeps its newest RETAINED_WITHOUT_CONSUMERS, like a broker's size-based retention.
 */
interface TopicLog {
  base: number;
  messages: BusMessage[];
}

const TRIM_CHUNK = 1_024;
const RETAINED_WITHOUT_CONSUMERS = 10_000;

interface Group {
  groupId: string;
  /** Next offset to hand out (one partition per topic in-process). */
  committed: number;
  /** The subscription currently consuming; a stale subscription's stop() must not stop a newer one. */
  generation: number;
  running: boolean;
  draining: Promise<void> | undefined;
  options: SubscribeOptions;
}

/**
 * The embedded default's bus: one process, one partition per topic, an in-memory log per topic and a
 * committed offset per consumer group. It keeps the Kafka semantics the apps rely on (at-least-once,
 * commit after the handler resolves, per-key order, dead-lettering) but nothing survives a restart,
 * which is why the embedded default is for development and not for production. Consumed messages
 * are not kept: a long-running embedded gateway must not grow by every event it ever published.
 */
export class InProcessEventBus implements EventBus {
  private readonly logs = new Map<string, TopicLog>();
  private readonly groups = new Map<string, Group[]>();
  private closed = false;

  publish(topic: string, key: string, value: Uint8Array, headers: Record<string, string> = {}): void {
    if (this.closed) throw new Error("event bus is closed");
    this.append({ topic, key, value, headers });
  }

  async flush(): Promise<void> {}

  backlog(): number {
    return 0;
  }

  /** How many messages of a topic are held in memory (diagnostics; consumed ones are dropped). */
  retained(topic: string): number {
    return this.logs.get(topic)?.messages.length ?? 0;
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error("event bus is closed");
    subscriptionHandler(options);
    const groups = this.groups.get(options.topic) ?? [];
    this.groups.set(options.topic, groups);
    const existing = groups.find((group) => group.groupId === options.groupId);
    if (existing?.running)
      throw new Error(`group ${options.groupId} already consumes ${options.topic} in this process`);
    const group: Group = existing ?? {
      groupId: options.groupId,
      committed:
        options.fromBeginning === false ? end(this.log(options.topic)) : this.log(options.topic).base,
      generation: 0,
      running: true,
      draining: undefined,
      options,
    };
    // A restarted group waits for its previous run to finish its last message, like a rebalance.
    await group.draining;
    const generation = group.generation + 1;
    group.generation = generation;
    group.running = true;
    group.options = options;
    if (!existing) groups.push(group);
    queueMicrotask(() => this.drain(group));
    return {
      stop: async () => {
        if (group.generation === generation) group.running = false;
        await group.draining;
      },
    };
  }

  async close(): Promise<void> {
    const all = [...this.groups.values()].flat();
    for (const group of all) group.running = false;
    // Handlers still finishing may dead-letter a message, which appends to the log: close after them.
    await Promise.all(all.map((group) => group.draining));
    this.closed = true;
  }

  private append(message: BusMessage): void {
    // Copies, as a broker would: a caller that reuses its buffer must not change what was published.
    const log = this.log(message.topic);
    log.messages.push({
      topic: message.topic,
      key: message.key,
      value: message.value.slice(),
      headers: { ...message.headers },
    });
    if (!this.groups.get(message.topic)?.length) this.trim(message.topic);
    // Deliver on a later tick: publishing never runs consumer code on the caller's stack.
    for (const group of this.groups.get(message.topic) ?? []) queueMicrotask(() => this.drain(group));
  }

  private log(topic: string): TopicLog {
    let log = this.logs.get(topic);
    if (!log) {
      log = { base: 0, messages: [] };
      this.logs.set(topic, log);
    }
    return log;
  }

  /** Drops what every group of the topic has committed (stopped groups included: they resume). */
  private trim(topic: string): void {
    const log = this.log(topic);
    const groups = this.groups.get(topic) ?? [];
    const keepFrom =
      groups.length === 0
        ? end(log) - RETAINED_WITHOUT_CONSUMERS
        : Math.min(...groups.map((group) => group.committed));
    const drop = keepFrom - log.base;
    if (drop < TRIM_CHUNK) return;
    log.messages.splice(0, drop);
    log.base += drop;
  }

  private drain(group: Group): void {
    if (group.draining || !group.running) return;
    group.draining = this.consume(group).finally(() => {
      group.draining = undefined;
      this.trim(group.options.topic);
      if (group.running && group.committed < end(this.log(group.options.topic))) this.drain(group);
    });
  }

  private async consume(group: Group): Promise<void> {
    const chosen = subscriptionHandler(group.options);
    if (chosen.kind === "batch") return this.consumeBatches(group, chosen.handler);
    const log = this.log(group.options.topic);
    while (group.running && group.committed < end(log)) {
      const offset = group.committed;
      // Not done (stopped between attempts): the offset stays, the next run starts from this message.
      if (!(await this.deliver(group, this.consumed(group, offset), chosen.handler))) return;
      group.committed = offset + 1;
    }
  }

  /** Whatever has queued since the last batch is one batch (up to the size bound). */
  private async consumeBatches(group: Group, handler: BatchHandler): Promise<void> {
    const log = this.log(group.options.topic);
    const maxBatchSize = group.options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    while (group.running && group.committed < end(log)) {
      const last = Math.min(end(log), group.committed + maxBatchSize);
      const batch: ConsumedMessage[] = [];
      for (let offset = group.committed; offset < last; offset++) batch.push(this.consumed(group, offset));
      const finished = await deliverBatch(handler, batch, {
        deliverOne: (message, single) => this.deliver(group, message, single),
        markDone: (message) => {
          group.committed = Number(message.offset) + 1;
        },
      });
      if (!finished) return;
    }
  }

  private consumed(group: Group, offset: number): ConsumedMessage {
    const log = this.log(group.options.topic);
    const message = log.messages[offset - log.base] as BusMessage;
    return {
      ...message,
      value: message.value.slice(),
      headers: { ...message.headers },
      partition: 0,
      offset: String(offset),
    };
  }

  /** True when the message is done with: handled, or dead-lettered after its last attempt. */
  private deliver(group: Group, message: ConsumedMessage, handler: MessageHandler): Promise<boolean> {
    const { options } = group;
    return deliverWithRetries(message, handler, {
      topic: options.topic,
      groupId: options.groupId,
      maxAttempts: options.maxAttempts,
      deadLetter: (topic, key, value, headers) => this.append({ topic, key, value, headers }),
      running: () => group.running,
    });
  }
}

/** The offset the next published message gets. */
function end(log: TopicLog): number {
  return log.base + log.messages.length;
}
