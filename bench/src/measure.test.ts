import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readCpu } from "./accounting/cpu.js";
import { settled } from "./measure.js";

describe("settled", () => {
  it("takes the end reading only once the apps are idle, so work still running after the load is counted", async () => {
    // An app still busy after the load ended (a consumer applying the last batch): ~0.6 s of CPU, then idle.
    const script =
      "while (process.cpuUsage().user + process.cpuUsage().system < 600000) {} setInterval(() => {}, 1000);";
    const app = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
    try {
      const counted = [{ name: "consumer", pid: app.pid as number, role: "app" as const }];
      const before = readCpu(counted).consumer;
      const after = (await settled(counted)).consumer;
      if (!before || !after) throw new Error("the app vanished");
      expect(after.own - before.own).toBeGreaterThanOrEqual(0.4);
    } finally {
      app.kill("SIGKILL");
    }
  });
});
