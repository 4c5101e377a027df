import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readCpu } from "./cpu.js";
import { listeningPid, type ProcStat, parseStat, treeCpu } from "./proc-tree.js";

/** A /proc/<pid>/stat line with the given times in ticks (52 fields as on Linux 5+). */
function statLine(pid: number, comm: string, ppid: number, ticks: [number, number, number, number]): string {
  const rest = Array.from({ length: 52 - 17 }, () => "0").join(" ");
  return `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${ticks.join(" ")} ${rest}`;
}

const proc = (pid: number, ppid: number, own: number, reaped = 0): [number, ProcStat] => [
  pid,
  { pid, ppid, comm: "p", ownSeconds: own, reapedChildrenSeconds: reaped },
];

describe("parseStat", () => {
  it("reads ppid and user+system, children's user+system, past a command name with spaces and parens", () => {
    const stat = parseStat(statLine(4242, "postgres: 15/main: x (y) idle", 2192, [150, 50, 30, 20]));
    expect(stat).toEqual({
      pid: 4242,
      ppid: 2192,
      comm: "postgres: 15/main: x (y) idle",
      ownSeconds: 2,
      reapedChildrenSeconds: 0.5,
    });
  });
});

describe("treeCpu", () => {
  it("sums the root, every live descendant and what reaped children left in cutime, and nothing else", () => {
    const processes = new Map([
      proc(1, 0, 100), // init: not in the tree
      proc(10, 1, 1, 4), // postmaster: 1 s own, 4 s of backends that exited
      proc(11, 10, 2), // a backend
      proc(12, 10, 3, 0.5), // a backend with a reaped child of its own
      proc(13, 12, 0.25), // a grandchild
      proc(20, 1, 7), // an unrelated process
    ]);
    expect(treeCpu(10, processes)).toEqual({ ownSeconds: 1, descendantsSeconds: 9.75, liveDescendants: 3 });
    expect(treeCpu(99, processes)).toBeUndefined();
  });
});

describe("readCpu on real processes", () => {
  it("counts the CPU of children that started and exited between two readings", async () => {
    // A parent that runs two children one after the other, each burning ~0.3 s of CPU, and waits for
    // both (as the postmaster does for its backends) before it idles until killed.
    // CPU time, not wall time: on a busy machine a wall-clock loop gets less than its share.
    const burn = "while (process.cpuUsage().user + process.cpuUsage().system < 300000) {}";
    const parentScript = `
      const { spawnSync } = require("node:child_process");
      process.stdin.once("data", () => {
        for (let i = 0; i < 2; i++) spawnSync(process.execPath, ["-e", ${JSON.stringify(burn)}]);
        process.stdout.write("done\\n");
      });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["-e", parentScript], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      const pid = parent.pid as number;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const counted = [{ name: "parent", pid, role: "app" as const }];
      const before = readCpu(counted).parent;
      const done = new Promise((resolve) => parent.stdout?.once("data", resolve));
      parent.stdin?.write("go\n");
      await done;
      const after = readCpu(counted).parent;
      if (!before || !after) throw new Error("the parent vanished");
      const tree = after.own + after.descendants - (before.own + before.descendants);
      // The children are gone by now: only the parent's cutime remembers them.
      expect(after.live).toBe(0);
      expect(tree).toBeGreaterThanOrEqual(0.5);
      expect(after.own - before.own).toBeLessThan(0.3);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});

describe("listeningPid", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("finds the process listening on a port through /proc/net/tcp and the socket's inode", async () => {
    const listening = createServer();
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    const { port } = listening.address() as AddressInfo;
    expect(listeningPid(port)).toBe(process.pid);
  });

  it("finds none on a port nobody listens on", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(listeningPid(port)).toBeUndefined();
  });
});
