import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BusMessage } from "@gw/events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DiskSpool } from "./spool.js";

const message = (index: number): BusMessage => ({
  topic: "t",
  key: `k${index % 3}`,
  value: Buffer.from(`v${index}`),
  headers: { n: String(index) },
});
const values = (messages: BusMessage[]): string[] => messages.map((m) => Buffer.from(m.value).toString());

describe("DiskSpool", () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), "gw-spool-test-"));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it("replays appended events in order, batch by batch, and empties its files when drained", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    for (let index = 0; index < 7; index++) expect(spool.append(message(index))).toBe(true);
    expect(spool.pending).toBe(7);

    const first = await spool.peek(4);
    expect(values(first.messages)).toEqual(["v0", "v1", "v2", "v3"]);
    expect(first.messages[1]).toMatchObject({ topic: "t", key: "k1", headers: { n: "1" } });
    // Peeking again without an ack returns the same batch: nothing is lost if a send fails.
    expect(values((await spool.peek(4)).messages)).toEqual(["v0", "v1", "v2", "v3"]);
    await spool.ack(first);
    expect(spool.pending).toBe(3);

    const rest = await spool.peek(10);
    expect(values(rest.messages)).toEqual(["v4", "v5", "v6"]);
    await spool.ack(rest);
    expect(spool.pending).toBe(0);
    // Emptied in place (its descriptor stays open for the next append), the offset file removed.
    expect(statSync(spool.dataFile).size).toBe(0);
    expect(existsSync(join(directory, "events.spool.offset"))).toBe(false);
    spool.append(message(7));
    const next = await spool.peek(10);
    expect(values(next.messages)).toEqual(["v7"]);
    expect(readFileSync(spool.dataFile, "utf8").trim().split("\n")).toHaveLength(1);
    // A restart on the emptied file replays nothing that was delivered.
    expect(new DiskSpool({ directory, maxBytes: 1 << 20 }).pending).toBe(1);
  });

  it("writes each flush to the file at once, and sends this process's events from memory, not read back", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    for (let index = 0; index < 3; index++) spool.append(message(index));
    await spool.flushWrites();
    expect(readFileSync(spool.dataFile, "utf8").trim().split("\n")).toHaveLength(3);
    // The file is the journal for a later process; this one peeks its own events from memory.
    writeFileSync(spool.dataFile, "");
    const batch = await spool.peek(2);
    expect(values(batch.messages)).toEqual(["v0", "v1"]);
    await spool.ack(batch);
    expect(values((await spool.peek(10)).messages)).toEqual(["v2"]);
  });

  it("survives a restart: a new spool on the same folder resumes after the delivered part", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20, name: "edge-1" });
    for (let index = 0; index < 5; index++) spool.append(message(index));
    await spool.ack(await spool.peek(2));
    await spool.flushWrites();

    const reopened = new DiskSpool({ directory, maxBytes: 1 << 20, name: "edge-1" });
    expect(reopened.pending).toBe(3);
    expect(values((await reopened.peek(10)).messages)).toEqual(["v2", "v3", "v4"]);
  });

  it("cuts off a line torn by a crash mid-write", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    spool.append(message(0));
    spool.append(message(1));
    await spool.flushWrites();
    appendFileSync(spool.dataFile, '{"topic":"t","key":"k');

    const reopened = new DiskSpool({ directory, maxBytes: 1 << 20 });
    expect(reopened.pending).toBe(2);
    reopened.append(message(2));
    expect(values((await reopened.peek(10)).messages)).toEqual(["v0", "v1", "v2"]);
  });

  it("refuses events past its size bound", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 200 });
    let accepted = 0;
    for (let index = 0; index < 10; index++) if (spool.append(message(index))) accepted++;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(10);
    expect(spool.pending).toBe(accepted);
    await spool.flushWrites();
    expect(spool.bytes).toBeLessThanOrEqual(200);
    expect(readFileSync(spool.dataFile).length).toBe(spool.bytes);
  });

  it("keeps events in memory when the disk refuses a write, and reports it to the reader", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    rmSync(directory, { recursive: true, force: true });
    spool.append(message(0));
    await expect(spool.flushWrites()).rejects.toThrow(/ENOENT/);
    expect(spool.pending).toBe(1);
    mkdirSync(directory, { recursive: true });
    expect(values((await spool.peek(10)).messages)).toEqual(["v0"]);
  });

  it("puts prepended events in front of what it already holds", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    spool.append(message(2));
    spool.append(message(3));
    await spool.ack(await spool.peek(1));
    await spool.prepend([message(0), message(1)]);
    expect(spool.pending).toBe(3);
    expect(values((await spool.peek(10)).messages)).toEqual(["v0", "v1", "v3"]);
  });

  it("ignores a stale offset file larger than the data", () => {
    writeFileSync(
      join(directory, "events.spool.jsonl"),
      `${JSON.stringify({ topic: "t", key: "k", value: "", headers: {} })}\n`,
    );
    writeFileSync(join(directory, "events.spool.offset"), "99999");
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    expect(spool.pending).toBe(0);
    expect(readFileSync(spool.dataFile, "utf8")).toContain('"topic":"t"');
  });

  it("written() waits for the end of the turn, then every caller of the turn finds its line on disk", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    const waits = Array.from({ length: 16 }, (_, index) => {
      spool.append(message(index));
      return spool.written();
    });
    // Nothing is written while the turn runs: the answers of the turn share the one write at its end.
    expect(existsSync(spool.dataFile) ? readFileSync(spool.dataFile, "utf8") : "").toBe("");
    await Promise.all(waits);
    const lines = readFileSync(spool.dataFile, "utf8").trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { headers: { n: string } }).headers.n)).toEqual(
      Array.from({ length: 16 }, (_, index) => String(index)),
    );
    // With nothing queued it resolves at once, and a later append is written by its own turn.
    await spool.written();
    spool.append(message(16));
    await spool.written();
    expect(readFileSync(spool.dataFile, "utf8")).toContain('"n":"16"');
  });

  it("written() rejects every waiter of a turn the disk refuses, keeps the events, and a later turn writes them", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    rmSync(directory, { recursive: true, force: true });
    spool.append(message(0));
    const first = spool.written();
    spool.append(message(1));
    const second = spool.written();
    await expect(first).rejects.toThrow(/ENOENT/);
    await expect(second).rejects.toThrow(/ENOENT/);
    expect(spool.pending).toBe(2);
    mkdirSync(directory, { recursive: true });
    // Refused lines wait in memory: written() with no turn scheduled writes them itself.
    await spool.written();
    expect(readFileSync(spool.dataFile, "utf8").trim().split("\n")).toHaveLength(2);
    spool.append(message(2));
    await spool.written();
    expect(values((await spool.peek(10)).messages)).toEqual(["v0", "v1", "v2"]);
  });

  it("callers flushing at once each find their own event on disk, in append order (shared appends)", async () => {
    const spool = new DiskSpool({ directory, maxBytes: 1 << 20 });
    await Promise.all(
      Array.from({ length: 64 }, async (_, index) => {
        spool.append(message(index));
        await spool.flushWrites();
        // This caller's line is in the file when its flush resolves, whoever wrote it.
        expect(readFileSync(spool.dataFile, "utf8")).toContain(`"n":"${index}"`);
      }),
    );
    const lines = readFileSync(spool.dataFile, "utf8").trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { headers: { n: string } }).headers.n)).toEqual(
      Array.from({ length: 64 }, (_, index) => String(index)),
    );
  });
});
