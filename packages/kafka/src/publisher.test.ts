import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BusMessage } from "@gw/events";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BatchingPublisher, type PublisherOptions } from "./publisher.js";
import { DiskSpool } from "./spool.js";

/** A stand-in broker: records acknowledged batches and can be switched off. */
class FakeBroker {
  batches: string[][] = [];
  up = true;
  rejectValue: string | undefined;

  send = async (messages: BusMessage[]): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (!this.up) throw new Error("connect ECONNREFUSED");
    const values = messages.map((message) => Buffer.from(message.value).toString());
    if (this.rejectValue && values.includes(this.rejectValue))
      throw Object.assign(new Error("gave up"), { cause: { type: "MESSAGE_TOO_LARGE" } });
    this.batches.push(values);
  };

  get delivered(): string[] {
    return this.batches.flat();
  }
}

function capturingLogger(): { logger: PublisherOptions["logger"]; errors: string[] } {
  const errors: string[] = [];
  const logger = pino(
    { level: "info" },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as { level: number; msg: string };
        if (entry.level >= 50) errors.push(entry.msg);
      },
    },
  );
  return { logger, errors };
}

const message = (value: string): BusMessage => ({
  topic: "gateway.usage.v1",
  key: "account-1",
  value: Buffer.from(value),
  headers: {},
});
const range = (count: number, from = 0): string[] => Array.from({ length: count }, (_, i) => `e${from + i}`);

describe("BatchingPublisher", () => {
  let broker: FakeBroker;
  let directory: string;
  let log: ReturnType<typeof capturingLogger>;
  const publishers: BatchingPublisher[] = [];

  const create = (options: Partial<PublisherOptions> = {}): BatchingPublisher => {
    const publisher = new BatchingPublisher({
      send: broker.send,
      logger: log.logger,
      lingerMs: 2,
      batchSize: 100,
      batchBytes: 1 << 20,
      maxQueued: 1000,
      retry: { initialMs: 2, maxMs: 10 },
      ...options,
    });
    publishers.push(publisher);
    return publisher;
  };

  beforeEach(() => {
    broker = new FakeBroker();
    log = capturingLogger();
    directory = mkdtempSync(join(tmpdir(), "gw-publisher-test-"));
  });
  afterEach(async () => {
    broker.up = true;
    await Promise.all(publishers.splice(0).map((publisher) => publisher.close(100)));
    rmSync(directory, { recursive: true, force: true });
  });

  it("returns from publish at once and sends what arrives together as one batch", async () => {
    const publisher = create();
    for (const value of range(3)) publisher.publish(message(value));
    expect(broker.batches).toEqual([]);
    expect(publisher.backlog()).toBe(3);
    await publisher.flush();
    expect(broker.batches).toEqual([range(3)]);
    expect(publisher.backlog()).toBe(0);
  });

  it("closes batches at the size bound, keeping order", async () => {
    const publisher = create({ batchSize: 10 });
    for (const value of range(25)) publisher.publish(message(value));
    await publisher.flush();
    expect(broker.batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(broker.delivered).toEqual(range(25));
  });

  it("lingers before every partial batch, not only after an idle spell, so a trickle rides in few requests", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gated = async (messages: BusMessage[]) => {
      if (broker.batches.length === 0) await gate;
      await broker.send(messages);
    };
    const publisher = create({ send: gated, lingerMs: 300, batchSize: 500 });
    publisher.publish(message("e0"));
    await new Promise((resolve) => setTimeout(resolve, 350));
    // e0's request is in flight; e1 arrives meanwhile, e2 a moment after that request is answered.
    publisher.publish(message("e1"));
    release();
    await expect.poll(() => broker.batches.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    publisher.publish(message("e2"));
    await publisher.flush();
    expect(broker.batches).toEqual([["e0"], ["e1", "e2"]]);
  });

  it("keeps events while the broker is down and delivers them in order when it is back", async () => {
    broker.up = false;
    const publisher = create({ batchSize: 4 });
    for (const value of range(10)) publisher.publish(message(value));
    let flushed = false;
    const flushing = publisher.flush().then(() => {
      flushed = true;
    });
    await expect.poll(() => log.errors.length).toBeGreaterThan(0);
    expect(publisher.backlog()).toBe(10);
    expect(flushed).toBe(false);
    expect(log.errors).toEqual([expect.stringContaining("cannot deliver events to Kafka")]);

    for (const value of range(5, 10)) publisher.publish(message(value));
    broker.up = true;
    await flushing;
    await publisher.flush();
    expect(broker.delivered).toEqual(range(15));
    expect(publisher.backlog()).toBe(0);
  });

  it("spills past the memory bound to the spool and replays everything in publish order", async () => {
    broker.up = false;
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    const publisher = create({ maxQueued: 5, batchSize: 3, spool });
    for (const value of range(20)) publisher.publish(message(value));
    expect(publisher.backlog()).toBe(20);
    expect(spool.pending).toBe(15);

    broker.up = true;
    // Published while the spool still holds events: they queue behind it, not ahead of it.
    publisher.publish(message("e20"));
    await publisher.flush();
    expect(broker.delivered).toEqual(range(21));
    expect(spool.pending).toBe(0);
    expect(publisher.dropped()).toBe(0);
  });

  it("logs every event it has to drop when memory and spool are full", async () => {
    broker.up = false;
    const spool = new DiskSpool({ directory, maxBytes: 300 });
    const publisher = create({ maxQueued: 2, spool });
    for (const value of range(20)) publisher.publish(message(value));
    const dropped = publisher.dropped();
    expect(dropped).toBeGreaterThan(0);
    expect(publisher.backlog() + dropped).toBe(20);
    expect(log.errors.filter((error) => error.startsWith("event dropped"))).toHaveLength(dropped);
  });

  it("without a spool, logs overflow as dropped instead of growing without bound", () => {
    broker.up = false;
    const publisher = create({ maxQueued: 3 });
    for (const value of range(5)) publisher.publish(message(value));
    expect(publisher.backlog()).toBe(3);
    expect(publisher.dropped()).toBe(2);
    expect(log.errors.filter((error) => error.includes("no spool directory"))).toHaveLength(2);
  });

  it("spools what is undelivered at close, ahead of older spool content, for the next process", async () => {
    broker.up = false;
    const first = create({ maxQueued: 4, spool: new DiskSpool({ directory, maxBytes: 1 << 20 }) });
    for (const value of range(10)) first.publish(message(value));
    await first.close(20);
    expect(() => first.publish(message("late"))).toThrow(/closed/);

    broker.up = true;
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    expect(spool.pending).toBe(10);
    const second = create({ spool });
    await second.flush();
    expect(broker.delivered).toEqual(range(10));
  });

  it("isolates a message the broker refuses for good and delivers the rest of its batch", async () => {
    broker.rejectValue = "e2";
    const publisher = create();
    for (const value of range(5)) publisher.publish(message(value));
    await publisher.flush();
    expect(broker.delivered).toEqual(["e0", "e1", "e3", "e4"]);
    expect(publisher.dropped()).toBe(1);
    expect(log.errors).toEqual([expect.stringContaining("refuses this message permanently")]);
  });

  describe("with a journal", () => {
    it("writes every event to the spool before persisted() resolves, and a new process replays it", async () => {
      broker.up = false;
      const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
      const killed = create({ spool, journal: true });
      for (const value of range(4)) killed.publish(message(value));
      // Not in memory first: the journal holds every event from the moment it is published.
      expect(spool.pending).toBe(4);
      await killed.persisted();
      expect(readFileSync(spool.dataFile, "utf8").trim().split("\n")).toHaveLength(4);

      // The process dies here. close(0) while the broker is down stands in for it: it only stops the
      // pump (nothing was in memory to spool). The next process, on the same directory, replays the journal.
      await killed.close(0);
      broker.up = true;
      const next = create({ spool: new DiskSpool({ directory, maxBytes: 1 << 20 }), journal: true });
      next.publish(message("e4"));
      await next.flush();
      expect(broker.delivered).toEqual(range(5));
    });

    it("empties the journal once the broker acknowledged everything", async () => {
      const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
      const publisher = create({ spool, journal: true });
      for (const value of range(10)) publisher.publish(message(value));
      await publisher.persisted();
      await publisher.flush();
      expect(broker.delivered).toEqual(range(10));
      expect(spool.pending).toBe(0);
      expect(statSync(spool.dataFile).size).toBe(0);
    });

    it("without a journal, persisted() resolves at once (nothing on the request path waits for the broker)", async () => {
      broker.up = false;
      const publisher = create({ spool: new DiskSpool({ directory, maxBytes: 1 << 20 }) });
      publisher.publish(message("e0"));
      await publisher.persisted();
      expect(publisher.backlog()).toBe(1);
      expect(broker.delivered).toEqual([]);
    });
  });
});
