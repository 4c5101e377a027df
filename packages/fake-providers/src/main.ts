import { startFakeProviders } from "./start.js";

// `pnpm fake-providers`: the three fakes on fixed ports, for running the gateway against them by hand or in
// benchmarks. Ports, host, a required key and demo mode come from the environment.

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`${name} must be a port number (0-65535), got ${JSON.stringify(raw)}`);
  }
  return value;
}

const host = process.env.FAKE_HOST || "127.0.0.1";
const apiKey = process.env.FAKE_API_KEY || undefined;
const demo = process.env.FAKE_DEMO === "1" || process.env.FAKE_DEMO === "true";

const providers = await startFakeProviders({
  host,
  ...(apiKey ? { apiKey } : {}),
  openai: { port: port("FAKE_OPENAI_PORT", 9101), demo },
  anthropic: { port: port("FAKE_ANTHROPIC_PORT", 9102), demo },
  gemini: { port: port("FAKE_GEMINI_PORT", 9103), demo },
});

process.stdout.write(
  [
    `fake providers listening on ${host}${demo ? " (demo mode)" : ""}${apiKey ? " (key required)" : ""}:`,
    `  OPENAI_BASE_URL=${providers.openai.baseUrl}`,
    `  ANTHROPIC_BASE_URL=${providers.anthropic.baseUrl}`,
    `  GEMINI_BASE_URL=${providers.gemini.baseUrl}`,
    "steer with the x-fake-scenario header or POST /__fake/scenario; GET /__fake/requests lists what arrived",
    "",
  ].join("\n"),
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  providers.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`failed to close the fake providers: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
