import { join } from "node:path";
import { freePort } from "@gw/db";
import { startProcess, waitForOutput } from "../proc.js";
import { UPSTREAM_KEY } from "./direct.js";
import type { Target } from "./target.js";

/**
 * The node floor (`src/floor/relay.ts`): a bare `node:http` + undici `dispatch` relay to the same fake
 * upstream, with the edges' inspector. Its process is named `edge` in the CPU accounting so the edge
 * table gives its CPU per request, stream, frame and KB of prompt beside the real edges'.
 */
export async function startFloor(benchDir: string, upstreamUrl: string): Promise<Target> {
  const app = startProcess(
    "node-floor",
    process.execPath,
    [
      "--inspect=127.0.0.1:0",
      // The edges' profiling hook applies to the floor too, so both profiles come from the same run.
      ...(process.env.BENCH_EDGE_NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean),
      join(benchDir, "dist/floor/main.js"),
      String(await freePort()),
      upstreamUrl,
    ],
    {},
  );
  let url: string;
  try {
    url = await waitForOutput(app, /FLOOR_URL=(\S+)/);
  } catch (error) {
    await app.stop();
    throw error;
  }
  return {
    name: "node floor",
    description:
      "the node floor: a bare node:http server relaying bytes to the same upstream through undici dispatch (no routing, JSON, auth, admission or metering)",
    url: `${url}/v1/chat/completions`,
    headers: { "content-type": "application/json", authorization: `Bearer ${UPSTREAM_KEY}` },
    model: "gpt-4o-mini",
    pids: () => (app.child.pid ? [app.child.pid] : []),
    processes: (): Record<string, number> => (app.child.pid ? { edge: app.child.pid } : {}),
    services: [],
    inspectorUrl: () => waitForOutput(app, /Debugger listening on (ws:\/\/\S+)/, 1000).catch(() => undefined),
    stop: () => app.stop(),
  };
}
