import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BusMessage } from "@gw/events";

export interface SpoolOptions {
  /** Must belong to one process (one per replica): two writers would interleave their lines. */
  directory: string;
  /** Upper bound of the spool file; past it, events are refused (and the caller logs them). */
  maxBytes: number;
  /** File name stem, so several buses can share a directory. */
  name?: string;
}

/** A batch read from the spool; acknowledge it with `ack` once the broker has it. */
export interface SpoolBatch {
  messages: BusMessage[];
  bytes: number;
}

interface SpoolRecord {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

const READ_CHUNK = 1 << 20;
/**
 * Events appended by this process are also kept in memory, up to this many, so the pump sends them
 * without reading the file back; past it (a long broker outage) it reads the file as before.
 */
const TAIL_LIMIT = 10_000;

/**
 * The overflow of the producer's bounded memory queue while the broker is unreachable: an
 * append-only file of JSON lines plus a file holding the byte offset up to which lines were
 * delivered. Lines are replayed in order; once everything is delivered the offset file is deleted
 * and the data file emptied, and both survive a restart so a later process replays them. Appends are
 * buffered and written asynchronously, so a publisher never waits on the disk.
 */
export class DiskSpool {
  readonly dataFile: string;
  private readonly offsetFile: string;
  private readonly maxBytes: number;
  /** Bytes in the data file, written or queued for writing. */
  private size = 0;
  /** Bytes of the data file already delivered. */
  private delivered = 0;
  private records = 0;
  private unwritten: string[] = [];
  /** The end-of-turn write `append` scheduled; `written` callers wait on it. */
  private turn: Promise<void> | undefined;
  /** The data file, opened for appending once and kept open (not an open and a close per write). */
  private fd: number | undefined;
  /** Whether an offset file may exist (written since the file was last emptied, or found at start). */
  private offsetOnDisk = true;
  /** Every undelivered event in file order with its line's bytes, while they all fit; else undefined. */
  private tail: { message: BusMessage; bytes: number }[] | undefined = [];

  constructor(options: SpoolOptions) {
    mkdirSync(options.directory, { recursive: true });
    const stem = options.name ?? "events";
    this.dataFile = join(options.directory, `${stem}.spool.jsonl`);
    this.offsetFile = join(options.directory, `${stem}.spool.offset`);
    this.maxBytes = options.maxBytes;
    this.recover();
  }

  /** Events in the spool not yet acknowledged (including the batch being sent). */
  get pending(): number {
    return this.records;
  }

  get bytes(): number {
    return this.size;
  }

  /** Queues one event for writing; false when the spool is full (the event is not kept). */
  append(message: BusMessage): boolean {
    const line = `${JSON.stringify(toRecord(message))}\n`;
    const length = Buffer.byteLength(line);
    if (this.size + length > this.maxBytes) return false;
    this.size += length;
    this.records++;
    this.unwritten.push(line);
    if (this.tail && this.tail.length < TAIL_LIMIT) this.tail.push({ message, bytes: length });
    else this.tail = undefined;
    this.scheduleWrite();
    return true;
  }

  /** Reads up to `max` of the oldest undelivered events. */
  async peek(max: number): Promise<SpoolBatch> {
    await this.flushWrites();
    const messages: BusMessage[] = [];
    let bytes = 0;
    if (this.records === 0) return { messages, bytes };
    if (this.tail) {
      for (const entry of this.tail.slice(0, max)) {
        messages.push(entry.message);
        bytes += entry.bytes;
      }
      return { messages, bytes };
    }
    const handle = await open(this.dataFile, "r");
    try {
      let position = this.delivered;
      let carry = "";
      while (messages.length < max && position < this.size) {
        const buffer = Buffer.alloc(Math.min(READ_CHUNK, this.size - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        const lines = (carry + buffer.subarray(0, bytesRead).toString("utf8")).split("\n");
        carry = lines.pop() ?? "";
        for (const line of lines) {
          if (messages.length >= max) break;
          bytes += Buffer.byteLength(line) + 1;
          messages.push(fromRecord(JSON.parse(line) as SpoolRecord));
        }
      }
    } finally {
      await handle.close();
    }
    return { messages, bytes };
  }

  /** Marks a batch from `peek` delivered; deletes the files once nothing is left. */
  async ack(batch: SpoolBatch): Promise<void> {
    this.delivered += batch.bytes;
    this.records -= batch.messages.length;
    this.tail?.splice(0, batch.messages.length);
    if (this.records === 0) {
      this.tail = [];
      // Everything appended was peeked, so it is on disk: emptying the file synchronously leaves no
      // gap in which a new append could land in a file about to be emptied. The offset goes first: a
      // crash in between replays delivered events (consumers drop repeats), never skips any.
      if (this.offsetOnDisk) rmSync(this.offsetFile, { force: true });
      this.offsetOnDisk = false;
      // Emptied in place on the descriptor kept open (appends go to the new end): deleting it cost an
      // open, a close and an unlink per acknowledged batch, hundreds a second at a moderate rate.
      if (this.fd === undefined) rmSync(this.dataFile, { force: true });
      else ftruncateSync(this.fd, 0);
      this.size = 0;
      this.delivered = 0;
      return;
    }
    this.offsetOnDisk = true;
    await writeFile(this.offsetFile, String(this.delivered));
  }

  /**
   * Puts events in front of everything spooled (the memory queue at shutdown, older than the
   * spool's content) by rewriting the file. Unlike `append` it ignores the bound: these events were
   * already accepted. Only for shutdown, once nothing appends any more.
   */
  async prepend(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.flushWrites();
    const head = messages.map((message) => `${JSON.stringify(toRecord(message))}\n`).join("");
    const rest = existsSync(this.dataFile)
      ? readFileSync(this.dataFile).subarray(this.delivered)
      : Buffer.alloc(0);
    const temporary = `${this.dataFile}.tmp`;
    writeFileSync(temporary, Buffer.concat([Buffer.from(head), rest]));
    // The open descriptor names the replaced file: the next append opens the new one.
    this.closeFile();
    renameSync(temporary, this.dataFile);
    this.tail = undefined;
    rmSync(this.offsetFile, { force: true });
    this.delivered = 0;
    this.size = Buffer.byteLength(head) + rest.length;
    this.records += messages.length;
  }

  /**
   * Resolves when everything appended before the call is in the file, written now (synchronously);
   * rejects when the disk refuses it. For the pump and shutdown, which read the file next.
   */
  async flushWrites(): Promise<void> {
    const error = this.writeNow();
    if (error !== undefined) throw error;
  }

  /**
   * Resolves when everything appended before the call is in the file, by the one write `append`
   * scheduled for the end of this event-loop turn; rejects when the disk refuses it. Every answer
   * finishing in the turn waits on that same write: at saturation a write per answer was ~4 % of the
   * edge's CPU (a syscall each), and the wait is at most the rest of the turn.
   */
  written(): Promise<void> {
    // Nothing queued: every line appended so far is in the file (a refused write puts its lines back).
    if (this.unwritten.length === 0 || this.turn === undefined) return this.flushWrites();
    return this.turn;
  }

  private closeFile(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private scheduleWrite(): void {
    if (this.turn !== undefined) return;
    this.turn = new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.turn = undefined;
        const error = this.writeNow();
        if (error === undefined) resolve();
        else reject(error);
      });
    });
    // Nobody may be waiting (a spool without a journal); a refused write is then the pump's to report.
    this.turn.catch(() => undefined);
  }

  /**
   * One synchronous append of everything queued, on a descriptor kept open: a small write into the
   * page cache costs microseconds, where an asynchronous appendFile took three thread-pool round trips
   * (open, write, close) that every answer waiting in `flushWrites` sat through, more under load.
   */
  private writeNow(): unknown {
    if (this.unwritten.length === 0) return undefined;
    const lines = this.unwritten;
    this.unwritten = [];
    try {
      this.fd ??= openSync(this.dataFile, "a");
      const data = Buffer.from(lines.join(""));
      let written = 0;
      while (written < data.length) written += writeSync(this.fd, data, written);
    } catch (error) {
      // Kept in memory, in order, for the next write; the caller reports the error to its waiters.
      // (A write that failed part-way leaves a torn line, which recovery cuts off.)
      this.closeFile();
      this.unwritten = [...lines, ...this.unwritten];
      return error;
    }
    return undefined;
  }

  /** Picks up a spool left by an earlier process; a torn last line (crash mid-write) is cut off. */
  private recover(): void {
    if (!existsSync(this.dataFile)) return;
    const content = readFileSync(this.dataFile);
    const complete = content.lastIndexOf(0x0a) + 1;
    if (complete < content.length) truncateSync(this.dataFile, complete);
    this.size = complete;
    this.delivered = existsSync(this.offsetFile)
      ? Math.min(Number(readFileSync(this.offsetFile, "utf8")) || 0, complete)
      : 0;
    let count = 0;
    for (let index = this.delivered; index < complete; index++) if (content[index] === 0x0a) count++;
    this.records = count;
    // Events from the earlier process are read from the file.
    if (count > 0) this.tail = undefined;
  }
}

function toRecord(message: BusMessage): SpoolRecord {
  return {
    topic: message.topic,
    key: message.key,
    value: Buffer.from(message.value).toString("base64"),
    headers: message.headers,
  };
}

function fromRecord(record: SpoolRecord): BusMessage {
  return {
    topic: record.topic,
    key: record.key,
    value: new Uint8Array(Buffer.from(record.value, "base64")),
    headers: record.headers,
  };
}
