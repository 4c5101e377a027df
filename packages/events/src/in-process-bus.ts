import type { BusMessage, ConsumedMessage, EventBus, SubscribeOptions, Subscription } from "./bus.js";
import { deadLetterTopic } from "./bus.js";

interface Group {
  groupId: string;
  /** Next offset to hand out, per topic (one partition in-process). */
  committed: number;
  running: boolean;
  draining: Promise<void> | undefined;
  options: SubscribeOptions;
}

/**
 * The embedded default's bus: one process, one partition per topic, an in-memory log per topic and a
 * committed offset per consumer group. It keeps the Kafka semantics the apps rely on (at-least-once,
 * commit after the handler resolves, per-key order, dead-lettering) but nothing survives a restart,
 * which is why the embedded default is for development and not for production.
 */
export class InProcessEventBus implements EventBus {
  private readonly logs = new Map<string, BusMessage[]>();
  private readonly groups = new Map<string, Group[]>();
  private closed = false;

  publish(topic: string, key: string, value: Uint8Array, headers: Record<string, string> = {}): void {
    if (this.closed) throw new Error("event bus is closed");
    this.log(topic).push({ topic, key, value, headers });
    // Deliver on a later tick: publishing never runs consumer code on the caller's stack.
    for (const group of this.groups.get(topic) ?? []) queueMicrotask(() => this.drain(group));
  }

  async flush(): Promise<void> {}

  backlog(): number {
    return 0;
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const groups = this.groups.get(options.topic) ?? [];
    this.groups.set(options.topic, groups);
    const existing = groups.find((group) => group.groupId === options.groupId);
    if (existing?.running)
      throw new Error(`group ${options.groupId} already consumes ${options.topic} in this process`);
    const group: Group = existing ?? {
      groupId: options.groupId,
      committed: options.fromBeginning === false ? this.log(options.topic).length : 0,
      running: true,
      draining: undefined,
      options,
    };
    group.running = true;
    group.options = options;
    if (!existing) groups.push(group);
    queueMicrotask(() => this.drain(group));
    return {
      stop: async () => {
        group.running = false;
        await group.draining;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.groups.values()].flat();
    for (const group of all) group.running = false;
    await Promise.all(all.map((group) => group.draining));
  }

  private log(topic: string): BusMessage[] {
    let log = this.logs.get(topic);
    if (!log) {
      log = [];
      this.logs.set(topic, log);
    }
    return log;
  }

  private drain(group: Group): void {
    if (group.draining || !group.running) return;
    group.draining = this.consume(group).finally(() => {
      group.draining = undefined;
      if (group.running && group.committed < this.log(group.options.topic).length) this.drain(group);
    });
  }

  private async consume(group: Group): Promise<void> {
    const log = this.log(group.options.topic);
    while (group.running && group.committed < log.length) {
      const offset = group.committed;
      const message = log[offset] as BusMessage;
      const consumed: ConsumedMessage = { ...message, partition: 0, offset: String(offset) };
      await this.deliver(group.options, consumed);
      group.committed = offset + 1;
    }
  }

  private async deliver(options: SubscribeOptions, message: ConsumedMessage): Promise<void> {
    const maxAttempts = options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        await options.handler(message);
        return;
      } catch (error) {
        if (attempt >= maxAttempts) {
          const reason = error instanceof Error ? error.message : String(error);
          this.publish(deadLetterTopic(options.topic, options.groupId), message.key, message.value, {
            ...message.headers,
            "x-error": reason,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 10 * 2 ** attempt)));
      }
    }
  }
}
