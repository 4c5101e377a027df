import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream kernel). */
const CLOCK_TICKS = 100;

/** The fields of /proc/<pid>/stat the accounting needs, times in seconds. */
export interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime: CPU the process itself has used. */
  ownSeconds: number;
  /** cutime + cstime: CPU of its children that exited and that it waited for (reaped). */
  reapedChildrenSeconds: number;
}

/** Parses one /proc/<pid>/stat line (the command name is in parentheses and may hold spaces). */
export function parseStat(line: string): ProcStat {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  // After ") ": state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17), 1-based as in proc(5).
  const fields = line.slice(close + 2).split(" ");
  const at = (field: number): number => Number(fields[field - 3]);
  return {
    pid: Number(line.slice(0, open).trim()),
    ppid: at(4),
    comm: line.slice(open + 1, close),
    ownSeconds: (at(14) + at(15)) / CLOCK_TICKS,
    reapedChildrenSeconds: (at(16) + at(17)) / CLOCK_TICKS,
  };
}

export function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined; // gone (or never there)
  }
}

/** Every process visible in /proc at this moment, by pid. */
export function snapshot(procRoot = "/proc"): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  for (const entry of readdirSync(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parseStat(readFileSync(`${procRoot}/${entry}/stat`, "utf8"));
      out.set(stat.pid, stat);
    } catch {
      // exited between readdir and read
    }
  }
  return out;
}

/** CPU seconds of a process tree, split into the root's own and everything below it. */
export interface TreeCpu {
  /** The root's utime + stime. */
  ownSeconds: number;
  /** Live descendants' CPU plus every reaped descendant's (folded into its parent's cutime/cstime). */
  descendantsSeconds: number;
  /** How many descendants were alive at this sample. */
  liveDescendants: number;
}

/**
 * The CPU a process tree has used so far: for each live member, its own time plus its reaped children's
 * (cutime/cstime). A child that exits and is waited for moves its whole time into the parent's cutime, so
 * the sum over the tree never loses a process that came and went between two samples (PostgreSQL's
 * per-connection backends, Redis's save children); the difference of two samples is the tree's CPU in
 * between. Undefined when the root is gone.
 */
export function treeCpu(root: number, processes: Map<number, ProcStat>): TreeCpu | undefined {
  const rootStat = processes.get(root);
  if (!rootStat) return undefined;
  const children = new Map<number, number[]>();
  for (const stat of processes.values()) {
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat.pid);
    else children.set(stat.ppid, [stat.pid]);
  }
  let descendantsSeconds = rootStat.reapedChildrenSeconds;
  let liveDescendants = 0;
  const queue = [...(children.get(root) ?? [])];
  const seen = new Set<number>([root]);
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const stat = processes.get(pid);
    if (!stat) continue;
    liveDescendants++;
    descendantsSeconds += stat.ownSeconds + stat.reapedChildrenSeconds;
    queue.push(...(children.get(pid) ?? []));
  }
  return { ownSeconds: rootStat.ownSeconds, descendantsSeconds, liveDescendants };
}

/** Socket inodes listening on `port` (TCP over IPv4 or IPv6), from /proc/net/tcp{,6}. */
export function listeningInodes(port: number, procRoot = "/proc"): number[] {
  const inodes: number[] = [];
  for (const table of ["tcp", "tcp6"]) {
    let text: string;
    try {
      text = readFileSync(`${procRoot}/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (column 9); st 0A = LISTEN.
      const local = columns[1];
      if (!local || columns[3] !== "0A") continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16) !== port) continue;
      const inode = Number(columns[9]);
      if (inode > 0) inodes.push(inode);
    }
  }
  return inodes;
}

/**
 * The process that owns the socket listening on `port`: the inode from /proc/net/tcp, then the pid whose
 * /proc/<pid>/fd holds `socket:[inode]`. Several processes can share the socket (forked servers); the one
 * whose parent does not share it is the root. Needs permission to read the owner's fds (same user or root).
 */
export function listeningPid(port: number, procRoot = "/proc"): number | undefined {
  const inodes = new Set(listeningInodes(port, procRoot).map((inode) => `socket:[${inode}]`));
  if (inodes.size === 0) return undefined;
  const owners: number[] = [];
  for (const entry of readdirSync(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`${procRoot}/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`${procRoot}/${entry}/fd/${fd}`))) {
          owners.push(Number(entry));
          break;
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  const owning = new Set(owners);
  return owners.find((pid) => !owning.has(readStat(pid)?.ppid ?? 0)) ?? owners[0];
}
