import { startFloorRelay } from "./relay.js";

// Its own process (like an edge), so its CPU and heap are its own: `main.js <port> <upstream URL>`.
const port = Number(process.argv[2] ?? "0");
const upstreamUrl = process.argv[3];
if (!upstreamUrl) throw new Error("usage: floor/main.js <port> <upstream URL>");
const relay = await startFloorRelay("127.0.0.1", port, upstreamUrl);
process.stdout.write(`FLOOR_URL=${relay.url}\n`);
process.once("SIGTERM", () => {
  relay.close().then(() => process.exit(0));
});
