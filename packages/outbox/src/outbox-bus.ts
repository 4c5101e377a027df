import { DEFAULT_MAX_BATCH_SIZE, type EventBus, type SubscribeOptions, type Subscription } from "@gw/events";
import { tracedSubscription } from "@gw/kafka";
import type { Logger } from "@gw/logger";
import { recordStaleOutboxGroups } from "@gw/metrics";
import { withTraceHeaders } from "@gw/telemetry";
import type { Kysely } from "kysely";
import { GroupDispatcher } from "./dispatcher.js";
import type { OutboxTables } from "./schema.js";
import { OutboxStore } from "./store.js";
import { TopicFeed } from "./topic-feed.js";
import { OutboxWriter } from "./writer.js";

export interface OutboxBusOptions {
  /** A connection to the outbox schema (migrated with outboxMigrations). */
  db: Kysely<OutboxTables>;
  logger: Logger;
  /** How often groups' positions are saved; default 200 ms (a crash redelivers at most that much). */
  commitIntervalMs?: number;
  /** How often applied rows are deleted; default 5 s. */
  pruneIntervalMs?: number;
  /** Applied rows are kept this long for groups that join later; default 60 s. */
  retentionMs?: number;
  /** Most events per insert; default 500. */
  batchSize?: number;
  /** A group with nothing to read looks again after this long even unwoken; default 1 s. */
  idlePollMs?: number;
  /** How long close() waits for queued events to be written; default 10 s. */
  closeTimeoutMs?: number;
  /**
   * A durable group this process has not consumed with for this long (a consumer that was removed or
   * renamed) stops holding back pruning; default a day (OUTBOX_STALE_GROUP_AFTER_S). Counted only once
   * this bus has run that long, so a gateway started after a long stop prunes nothing its groups need.
   */
  staleGroupMs?: number | undefined;
}

export const DEFAULT_STALE_GROUP_MS = 86_400_000;

/** Rows a topic's reader keeps for its slowest group: a few batches; a group further behind reads alone. */
const MAX_BUFFERED = 4 * DEFAULT_MAX_BATCH_SIZE;

interface GroupState {
  topic: string;
  groupId: string;
  /** Only groups that read from the beginning keep a saved position (and hold back pruning). */
  durable: boolean;
  applied: bigint;
  saved: bigint;
  dispatcher: GroupDispatcher | undefined;
}

/**
 * The embedded default's event bus: a PostgreSQL outbox in the embedded database instead of a
 * broker. `publish` queues the event for the single writer, which inserts it (batched with whatever
 * else was published meanwhile); `persisted()` resolves once it is committed, and the edge waits for
 * that before it completes a response, so a crash after a client saw its answer never loses the
 * usage. Each consumer group takes the table's rows after its saved position, through one reader per
 * topic that fans a read out to all of the topic's groups (TopicFeed), and saves the position only
 * after its handler applied the events; at start every group resumes from there, so what was
 * published and not yet applied is delivered again. Consumers are idempotent on the event id, so
 * that redelivery changes nothing twice.
 *
 * This is the one place the design lets a request wait on PostgreSQL (one insert, shared by the
 * requests that finish together): the embedded default has no broker and no disk spool, and the
 * issue that asked for it ("a crash at any point loses and duplicates nothing") needs the write to
 * be durable before the answer is. The split plane keeps Kafka and never waits on it.
 *
 * One process writes a data directory's outbox (the gateway); row ids then follow commit order.
 */
export class OutboxEventBus implements EventBus {
  private readonly store: OutboxStore;
  private readonly writer: OutboxWriter;
  private readonly groups = new Map<string, GroupState>();
  /** One reader per topic, shared by the topic's groups. */
  private readonly feeds = new Map<string, TopicFeed>();
  private readonly timers: NodeJS.Timeout[] = [];
  private accepting = true;
  private committing: Promise<void> = Promise.resolve();
  private readonly startedAt = Date.now();
  /** Stale groups already logged, so each is named once until it is seen again. */
  private reportedStale = new Set<string>();

  constructor(private readonly options: OutboxBusOptions) {
    this.store = new OutboxStore(options.db);
    this.writer = new OutboxWriter({
      store: this.store,
      logger: options.logger,
      batchSize: options.batchSize ?? 500,
      written: (topics) => {
        for (const topic of topics) this.feeds.get(topic)?.notify();
      },
    });
    this.timers.push(
      setInterval(() => void this.commitOffsets(), options.commitIntervalMs ?? 200).unref(),
      setInterval(() => void this.prune(), options.pruneIntervalMs ?? 5_000).unref(),
    );
  }

  publish(topic: string, key: string, value: Uint8Array, headers: Record<string, string> = {}): void {
    if (!this.accepting) throw new Error("event bus is closed");
    // As on Kafka: the active span's traceparent rides along for the consumers' spans.
    this.writer.enqueue({ topic, key, value, headers: withTraceHeaders(headers) });
  }

  persisted(): Promise<void> {
    return this.writer.persisted();
  }

  /** Everything published so far is in the table (where every group, present or later, reads it). */
  flush(): Promise<void> {
    return this.writer.persisted();
  }

  backlog(): number {
    return this.writer.backlog();
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (!this.accepting) throw new Error("event bus is closed");
    const id = `${options.topic}\u0000${options.groupId}`;
    const existing = this.groups.get(id);
    if (existing?.dispatcher)
      throw new Error(`group ${options.groupId} already consumes ${options.topic} in this process`);
    const state = existing ?? (await this.newGroup(options));
    this.groups.set(id, state);
    const feed = this.feedOf(options.topic);
    const reader = {};
    const dispatcher = new GroupDispatcher(tracedSubscription(options), state.applied, {
      take: (afterId, limit) => feed.take(reader, afterId, limit),
      changed: () => feed.changed(),
      deadLetter: (topic, key, value, headers) => this.publish(topic, key, value, headers),
      applied: (appliedId) => {
        if (appliedId > state.applied) state.applied = appliedId;
      },
    });
    state.dispatcher = dispatcher;
    return {
      stop: async () => {
        await dispatcher.stop();
        feed.leave(reader);
        if (state.dispatcher === dispatcher) state.dispatcher = undefined;
        await this.commitOffsets();
      },
    };
  }

  async close(): Promise<void> {
    this.accepting = false;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all([...this.groups.values()].map((state) => state.dispatcher?.stop()));
    for (const feed of this.feeds.values()) feed.close();
    if (await this.drainWrites()) await this.commitOffsets();
    // Otherwise the database is not answering: positions stay where they were saved last, and the
    // next start redelivers from there (consumers are idempotent).
  }

  private feedOf(topic: string): TopicFeed {
    let feed = this.feeds.get(topic);
    if (!feed) {
      feed = new TopicFeed({
        read: (afterId, limit) => this.store.read(topic, afterId, limit),
        idlePollMs: this.options.idlePollMs ?? 1_000,
        maxBuffered: MAX_BUFFERED,
      });
      this.feeds.set(topic, feed);
    }
    return feed;
  }

  private async newGroup(options: SubscribeOptions): Promise<GroupState> {
    const durable = options.fromBeginning !== false;
    const { topic, groupId } = options;
    if (!durable) {
      const last = await this.store.lastId(topic);
      return { topic, groupId, durable, applied: last, saved: last, dispatcher: undefined };
    }
    const saved = await this.store.offset(topic, groupId);
    // Saved at once: from now on the group holds back pruning of what it has not read.
    await this.store.saveOffsets([{ topic, groupId, deliveredId: saved }]);
    return { topic, groupId, durable, applied: saved, saved, dispatcher: undefined };
  }

  /** Saves durable groups' positions; one save at a time, after the dead letters they published. */
  private commitOffsets(): Promise<void> {
    this.committing = this.committing.then(async () => {
      const moved = [...this.groups.values()].filter((state) => state.durable && state.applied > state.saved);
      if (moved.length === 0) return;
      const positions = moved.map((state) => ({ state, at: state.applied }));
      try {
        // A dead letter published by a handled message must be kept before the message counts as done.
        await this.writer.persisted();
        await this.store.saveOffsets(
          positions.map(({ state, at }) => ({ topic: state.topic, groupId: state.groupId, deliveredId: at })),
        );
        for (const { state, at } of positions) if (at > state.saved) state.saved = at;
      } catch (error) {
        this.options.logger.warn({ err: error }, "outbox: saving consumer positions failed; retrying");
      }
    });
    return this.committing;
  }

  private async prune(): Promise<void> {
    try {
      // One process writes and consumes this outbox (writer-lock.ts): the groups it consumes with now
      // are seen; a group no subscription touches for staleGroupMs is a consumer that is gone.
      const live = [...this.groups.values()].filter((state) => state.durable && state.dispatcher);
      await this.store.touch(live.map(({ topic, groupId }) => ({ topic, groupId })));
      const staleMs = this.options.staleGroupMs ?? DEFAULT_STALE_GROUP_MS;
      const judged = Date.now() - this.startedAt >= staleMs;
      if (judged) await this.reportStale(staleMs);
      const deleted = await this.store.prune(
        this.options.retentionMs ?? 60_000,
        judged ? staleMs : undefined,
      );
      if (deleted > 0) this.options.logger.debug({ deleted }, "outbox: applied events pruned");
    } catch (error) {
      this.options.logger.warn({ err: error }, "outbox: pruning failed");
    }
  }

  private async reportStale(staleMs: number): Promise<void> {
    const stale = await this.store.staleGroups(staleMs);
    recordStaleOutboxGroups(stale);
    const now = new Set<string>();
    for (const group of stale) {
      const id = `${group.topic}\u0000${group.groupId}`;
      now.add(id);
      if (!this.reportedStale.has(id))
        this.options.logger.warn(
          { topic: group.topic, group: group.groupId, staleSeconds: staleMs / 1000 },
          "outbox: a consumer group not seen for the stale period no longer holds back pruning (removed consumer?); if it comes back it resumes after what was pruned",
        );
    }
    this.reportedStale = now;
  }

  /** True when everything queued was written before the close timeout. */
  private async drainWrites(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.closeTimeoutMs ?? 10_000);
    });
    const drained = await Promise.race([this.writer.persisted().then(() => true), timedOut]);
    clearTimeout(timer);
    if (!drained)
      this.options.logger.error(
        { events: this.writer.backlog() },
        "outbox: events not written before shutdown (the database did not answer): events lost",
      );
    return drained;
  }
}
