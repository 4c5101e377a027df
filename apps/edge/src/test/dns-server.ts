import { createSocket } from "node:dgram";
import { isIPv4 } from "node:net";

// A name server for tests (UDP, RFC 1035 wire format): answers A and AAAA queries from a table, NXDOMAIN
// for a name it does not know, an empty answer for a known name without that record type, and never
// answers a name listed as silent. Enough for the media fetcher's resolver, nothing more.

export interface TestNameServer {
  /** "127.0.0.1:port", for Resolver.setServers. */
  address: string;
  /** Every name asked, with its record type, in order. */
  asked: string[];
  close(): Promise<void>;
}

const A = 1;
const AAAA = 28;

export function serveDns(
  table: Record<string, string[]>,
  silent: readonly string[] = [],
): Promise<TestNameServer> {
  const asked: string[] = [];
  const socket = createSocket("udp4");
  socket.on("message", (query, peer) => {
    const { name, type, questionEnd } = readQuestion(query);
    asked.push(`${name} ${type === A ? "A" : type === AAAA ? "AAAA" : type}`);
    if (silent.includes(name)) return;
    const known = table[name.toLowerCase()];
    const records = (known ?? []).filter((address) =>
      type === A ? isIPv4(address) : type === AAAA && !isIPv4(address),
    );
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(known === undefined ? 0x8183 : 0x8180, 2); // response, RD, RA; NXDOMAIN or NOERROR
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    const answers = records.map((address) => answer(type, address));
    socket.send(
      Buffer.concat([header, query.subarray(12, questionEnd), ...answers]),
      peer.port,
      peer.address,
    );
  });
  return new Promise((resolve) => {
    socket.bind(0, "127.0.0.1", () => {
      resolve({
        address: `127.0.0.1:${socket.address().port}`,
        asked,
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}

function readQuestion(query: Buffer): { name: string; type: number; questionEnd: number } {
  const labels: string[] = [];
  let offset = 12;
  for (let length = query[offset] ?? 0; length > 0; length = query[offset] ?? 0) {
    labels.push(query.toString("latin1", offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  offset += 1;
  return { name: labels.join("."), type: query.readUInt16BE(offset), questionEnd: offset + 4 };
}

function answer(type: number, address: string): Buffer {
  const data = type === A ? Buffer.from(address.split(".").map(Number)) : ipv6Bytes(address);
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0); // the question's name
  record.writeUInt16BE(type, 2);
  record.writeUInt16BE(1, 4); // IN
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(data.length, 10);
  return Buffer.concat([record, data]);
}

function ipv6Bytes(address: string): Buffer {
  const [head = "", tail = ""] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  const bytes = Buffer.alloc(16);
  for (const [index, group] of groups.entries()) bytes.writeUInt16BE(Number.parseInt(group, 16), index * 2);
  return bytes;
}
