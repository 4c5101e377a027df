import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { appendFile, open, writeFile } from "node:fs/promises";
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
 * The overflow of the producer's bounded memory queue while the broker is unreachable: an
 * append-only file of JSON lines plus a file holding the byte offset up to which lines were
 * delivered. Lines are replayed in order; the files are deleted once everything is delivered, and
 * survive a restart so a later process replays them. Appends are buffered and written
 * asynchronously, so a publisher never waits on the disk.
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
  private writing: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  private writeError: unknown;
  /** One append in flight at a time; what arrives meanwhile goes in the next one (group commit). */
  private busy = false;
  private appendedLines = 0;
  private writtenLines = 0;

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
    this.appendedLines++;
    this.scheduleWrite();
    return true;
  }

  /** Reads up to `max` of the oldest undelivered events. */
  async peek(max: number): Promise<SpoolBatch> {
    await this.flushWrites();
    const messages: BusMessage[] = [];
    let bytes = 0;
    if (this.records === 0) return { messages, bytes };
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
    if (this.records === 0) {
      // Everything appended was peeked, so it is on disk: removing the files synchronously leaves
      // no gap in which a new append could land in a file about to be deleted.
      rmSync(this.dataFile, { force: true });
      rmSync(this.offsetFile, { force: true });
      this.size = 0;
      this.delivered = 0;
      return;
    }
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
    renameSync(temporary, this.dataFile);
    rmSync(this.offsetFile, { force: true });
    this.delivered = 0;
    this.size = Buffer.byteLength(head) + rest.length;
    this.records += messages.length;
  }

  /**
   * Resolves when everything appended before the call is on disk; rejects when the disk refuses it.
   * Callers that flush together share appends: at most the one in flight and the next one.
   */
  async flushWrites(): Promise<void> {
    const target = this.appendedLines;
    do {
      this.writeNow();
      await this.writing;
      this.throwWriteError();
    } while (this.writtenLines < target);
  }

  private throwWriteError(): void {
    if (this.writeError !== undefined) {
      const error = this.writeError;
      this.writeError = undefined;
      throw error;
    }
  }

  private scheduleWrite(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    setImmediate(() => this.writeNow());
  }

  private writeNow(): void {
    this.writeScheduled = false;
    if (this.busy || this.unwritten.length === 0) return;
    const lines = this.unwritten;
    this.unwritten = [];
    this.busy = true;
    this.writing = this.writing.then(async () => {
      try {
        await appendFile(this.dataFile, lines.join(""));
        this.writtenLines += lines.length;
      } catch (error) {
        // Kept in memory, in order, for the next write; the reader (flushWrites) reports the error.
        this.unwritten = [...lines, ...this.unwritten];
        this.writeError = error;
      } finally {
        this.busy = false;
      }
    });
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
