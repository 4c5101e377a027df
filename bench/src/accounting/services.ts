import type { Counted } from "./cpu.js";
import { listeningPid } from "./proc-tree.js";

/** Where the split plane's services listen, as the bench hands them to the apps. */
export interface ServiceAddresses {
  kafkaBrokers?: string;
  databaseUrl?: string;
  redisUrl?: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * The root process of each service on this machine, found by the port it listens on (socket inode in
 * /proc/net/tcp → the pid holding it in /proc/<pid>/fd): the Kafka broker's JVM, PostgreSQL's postmaster
 * (its backends are its children) and the redis-server. A service on another host cannot be sampled; it
 * is named in `missing` so the output says its CPU is not in the figure.
 */
export function serviceProcesses(
  addresses: ServiceAddresses,
  findPid: (port: number) => number | undefined = listeningPid,
): { counted: Counted[]; missing: string[] } {
  const counted: Counted[] = [];
  const missing: string[] = [];
  const wanted: Array<[string, string | undefined, number]> = [
    ["kafka", addresses.kafkaBrokers && `kafka://${addresses.kafkaBrokers.split(",")[0]}`, 9092],
    ["postgresql", addresses.databaseUrl, 5432],
    ["redis", addresses.redisUrl, 6379],
  ];
  for (const [name, address, defaultPort] of wanted) {
    if (!address) continue;
    const url = new URL(address);
    const port = Number(url.port || defaultPort);
    const pid = LOOPBACK.has(url.hostname) ? findPid(port) : undefined;
    if (pid) counted.push({ name, pid, role: "infrastructure" });
    else missing.push(`${name} (${url.host}: no local process listening that this user can see)`);
  }
  return { counted, missing };
}
