/** A deadline on the wheel; `cancel` before it passes and it never fires. */
export interface Deadline {
  cancel(): void;
}

/** One tick's deadlines, and how many of them are still armed. */
interface Slot {
  readonly tick: number;
  readonly entries: Entry[];
  live: number;
}

/** One object per deadline: the callback, and the slot and wheel whose counts it leaves when cancelled. */
class Entry implements Deadline {
  constructor(
    public fire: (() => void) | undefined,
    private readonly slot: Slot,
    private readonly wheel: { cancelled(slot: Slot): void },
  ) {}

  cancel(): void {
    if (this.fire === undefined) return;
    this.fire = undefined;
    this.wheel.cancelled(this.slot);
  }
}

/**
 * Coarse timeouts for the hot path: one shared interval instead of a Node timer per request. A request's
 * deadline (its body's arrival, a provider call's total time) is one small object pushed into the slot
 * of the tick it falls in, and cancelling it clears one field; Node's `setTimeout` costs a Timeout
 * object with its async-hooks resource, a linked-list insertion and, when its list empties, a priority
 * queue update, per request. A deadline fires between `ms` and `ms + tickMs` after it was set, which is
 * the resolution these timeouts need (seconds to minutes, answered 408/504). The interval runs only while
 * deadlines are pending and never keeps the process alive.
 */
export class TimerWheel {
  private readonly slots = new Map<number, Slot>();
  private pending = 0;
  private ticker: NodeJS.Timeout | undefined;
  private nextTick = 0;
  /** When the interval started: ticks count from here, so a tick's slot is due when the interval fires. */
  private origin = 0;

  constructor(
    private readonly tickMs = 50,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `fire` once, `ms` (rounded up to the next tick) from now, unless cancelled first. */
  schedule(ms: number, fire: () => void): Deadline {
    if (this.ticker === undefined) this.start();
    // Counted from the interval's own start, not from the epoch: on an epoch grid a slot can fall just
    // after the interval's firing instant and wait one more tick (up to ms + 2 ticks). Never a slot the
    // interval has already passed.
    const tick = Math.max(this.nextTick, Math.ceil((this.now() - this.origin + ms) / this.tickMs));
    let slot = this.slots.get(tick);
    if (slot === undefined) {
      slot = { tick, entries: [], live: 0 };
      this.slots.set(tick, slot);
    }
    const entry = new Entry(fire, slot, this);
    slot.entries.push(entry);
    slot.live++;
    this.pending++;
    return entry;
  }

  /** Deadlines set and neither fired nor cancelled. */
  get size(): number {
    return this.pending;
  }

  /**
   * An entry's cancel (not for callers: `Deadline.cancel` is). A slot whose deadlines were all cancelled
   * is dropped at once: a provider call's total timeout is minutes away, and its cancelled entries would
   * otherwise stay in the wheel until then (at 1,000 req/s and 600 s, 600,000 dead objects).
   */
  cancelled(slot: Slot): void {
    this.pending--;
    slot.live--;
    if (slot.live === 0 && this.slots.get(slot.tick) === slot) this.slots.delete(slot.tick);
  }

  /** Ticks holding at least one armed deadline (the wheel's memory, for its tests). */
  get slotCount(): number {
    return this.slots.size;
  }

  private start(): void {
    this.origin = this.now();
    this.nextTick = 0;
    this.ticker = setInterval(() => this.advance(), this.tickMs);
    this.ticker.unref();
  }

  private advance(): void {
    const current = Math.floor((this.now() - this.origin) / this.tickMs);
    // Every slot up to now, also those a late interval (a busy event loop) skipped over.
    for (; this.nextTick <= current; this.nextTick++) {
      const slot = this.slots.get(this.nextTick);
      if (!slot) continue;
      this.slots.delete(this.nextTick);
      for (const entry of slot.entries) {
        const fire = entry.fire;
        if (fire === undefined) continue;
        entry.fire = undefined;
        this.pending--;
        slot.live--;
        fire();
      }
    }
    if (this.pending === 0) {
      // Nothing left to fire (at most cancelled deadlines): drop their slots and stop.
      this.slots.clear();
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}

/** The process's wheel: the edge's request-level deadlines share one interval. */
export const sharedTimerWheel = new TimerWheel();
