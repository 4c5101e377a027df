import type { StoredMessage } from "./store.js";

export interface TopicFeedDeps {
  /** The next stored events of the topic after `afterId`, in id order (one SELECT). */
  read(afterId: bigint, limit: number): Promise<StoredMessage[]>;
  /** A reader waiting for new rows looks again after this long even unwoken (a safety net). */
  idlePollMs: number;
  /** Most rows held for readers behind the newest; a reader further behind reads on its own. */
  maxBuffered: number;
}

/**
 * The one reader of a topic's outbox rows in this process, shared by every consumer group of the
 * topic: a read fetches the rows after the newest held and keeps them until every group has passed
 * them, so the groups (billing and generations on the usage topic) take the same rows from memory
 * instead of each reading the table per batch. Groups still keep their own positions, handlers and
 * saved offsets; this only changes where their rows come from. The buffer always holds every row of
 * the topic with an id in (floor, end]: a group at or past the floor is served from it, a group behind
 * it (one joining from the beginning, or far behind) reads the table itself until it catches up.
 *
 * Row ids follow commit order (one writer, one insert in flight), so a read after `end` misses nothing.
 * After a read that found the table's end, readers at the end wait for the writer's next commit (or the
 * idle poll) instead of reading again.
 */
export class TopicFeed {
  private rows: StoredMessage[] = [];
  private floor: bigint | undefined;
  private end = 0n;
  private fetching: Promise<void> | undefined;
  /** Bumped by every commit of the writer; a read that saw the end is current while it is unchanged. */
  private commits = 0;
  private caughtUpAt: number | undefined;
  private readonly positions = new Map<object, bigint>();
  private change: { promise: Promise<void>; resolve(): void } | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: TopicFeedDeps) {}

  /** The rows after `after` for one reader (a group), up to `limit`; empty when there are none yet. */
  async take(reader: object, after: bigint, limit: number): Promise<StoredMessage[]> {
    this.positions.set(reader, after);
    this.trim();
    // Nothing held (or never read): the buffer starts where this reader is. Not during a read, whose
    // rows continue from the old end.
    if (this.floor === undefined || (this.rows.length === 0 && after > this.end && !this.fetching)) {
      this.floor = after;
      this.end = after;
    }
    if (after < this.floor || after > this.end) return this.deps.read(after, limit);
    const held = this.after(after, limit);
    // A reader short of a full batch reads on when the writer committed since the last read (a
    // lingering group gathers its batch this way); at the table's end it takes what is held.
    if (held.length >= limit || this.caughtUpAt === this.commits) return held;
    await this.fetch(limit);
    return this.after(after, limit);
  }

  /** Resolves at the writer's next commit of this topic, or after the idle poll. Shared by all readers. */
  changed(): Promise<void> {
    if (!this.change) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.change = { promise, resolve };
      this.idleTimer = setTimeout(() => this.wake(), this.deps.idlePollMs);
      this.idleTimer.unref();
    }
    return this.change.promise;
  }

  /** The writer committed rows of this topic. */
  notify(): void {
    this.commits++;
    this.wake();
  }

  /** A group stopped reading: it no longer holds rows in the buffer. */
  leave(reader: object): void {
    this.positions.delete(reader);
    this.trim();
  }

  close(): void {
    clearTimeout(this.idleTimer);
    this.change?.resolve();
    this.change = undefined;
  }

  private wake(): void {
    clearTimeout(this.idleTimer);
    // An idle poll reads again too: a safety net in case a commit was not announced.
    this.caughtUpAt = undefined;
    const change = this.change;
    this.change = undefined;
    change?.resolve();
  }

  /** One read at a time; readers arriving meanwhile share it. */
  private fetch(limit: number): Promise<void> {
    this.fetching ??= (async () => {
      const commits = this.commits;
      const from = this.end;
      const fresh = await this.deps.read(from, limit);
      const last = fresh.at(-1);
      if (from !== this.end) return;
      if (last) {
        this.rows.push(...fresh);
        this.end = last.id;
      }
      // Fewer than asked for: this was the table's end, as of the commits seen before the read.
      if (fresh.length < limit && commits === this.commits) this.caughtUpAt = commits;
    })().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private after(after: bigint, limit: number): StoredMessage[] {
    const start = this.rows.findIndex((row) => row.id > after);
    return start === -1 ? [] : this.rows.slice(start, start + limit);
  }

  /** Drops what every reader has passed, and the oldest rows beyond the bound (their reader reads alone). */
  private trim(): void {
    if (this.floor === undefined || this.positions.size === 0) return;
    const slowest = [...this.positions.values()].reduce((low, position) => (position < low ? position : low));
    let drop = this.rows.findIndex((row) => row.id > slowest);
    if (drop === -1) drop = this.rows.length;
    drop = Math.max(drop, this.rows.length - this.deps.maxBuffered);
    if (drop <= 0) return;
    const dropped = this.rows[drop - 1];
    this.rows = this.rows.slice(drop);
    if (dropped && dropped.id > this.floor) this.floor = dropped.id;
  }
}
