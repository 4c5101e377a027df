import { startUpstream } from "./server.js";

// Its own process, so the upstream never shares an event loop with the load generator or a target.
const port = Number(process.argv[2] ?? "0");
const upstream = await startUpstream("127.0.0.1", port);
process.stdout.write(`UPSTREAM_URL=${upstream.url}\n`);
process.once("SIGTERM", () => {
  upstream.close().then(() => process.exit(0));
});
