import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { listPrice } from "@gw/catalog";
import {
  type ConsumedMessage,
  decodeEnvelope,
  decodePayload,
  type EventBus,
  InProcessEventBus,
  USAGE_RECORDED_V1,
  type UsageRecorded,
} from "@gw/events";
import { type FakeServer, startFakeAnthropic, startFakeGemini, startFakeOpenAi } from "@gw/fake-providers";
import { type Logger, silentLogger } from "@gw/logger";
import type { Model } from "@gw/proto/catalog/v1/catalog";
import type { ProviderCredential } from "@gw/proto/keys/v1/keys";
import { loadEdgeConfig } from "../config.js";
import { connectEdgeDeps } from "../connect.js";
import type { EdgeSettings } from "../deps.js";
import type { MediaFetcher } from "../media/fetcher.js";
import { startEdge } from "../server.js";
import { RecordingBilling } from "./billing.js";
import { testEndpoint, testModel, testSnapshotResponse } from "./catalog.js";
import { startControlPlane } from "./control-plane.js";
import type { TestKey } from "./principals.js";

export const FAKE_KEY = "sk-fake-upstream";
/** An account's own provider key (BYOK): the openai and groq fakes accept it besides the gateway's. */
export const BYOK_FAKE_KEY = "sk-account-own-byok";

/** The test catalogue: one model per situation the hot path must handle. */
export function testModels(): Model[] {
  return [
    testModel("openai/gpt-4o-mini", [
      testEndpoint("openai", {
        upstreamModel: "gpt-4o-mini",
        pricing: { ...listPrice({ prompt: "0.15", completion: "0.60" }) },
        maxCompletionTokens: 16_384,
        contextLength: 128_000,
      }),
    ]),
    testModel("test/failover", [
      testEndpoint("openai", { upstreamModel: "gpt-4o", prompt: "1", completion: "2" }),
      testEndpoint("groq", { upstreamModel: "llama-3.3-70b", prompt: "1", completion: "2" }),
    ]),
    testModel("test/backup-only", [testEndpoint("groq", { upstreamModel: "llama-3.1-8b" })]),
    // Claude's own caps (200k context, 64k output), so extended thinking (max_tokens above a budget of
    // at least 1,024) fits the endpoint.
    testModel("anthropic/claude-test", [
      testEndpoint("anthropic", {
        upstreamModel: "claude-test",
        contextLength: 200_000,
        maxCompletionTokens: 64_000,
      }),
    ]),
    testModel("google/gemini-test", [testEndpoint("google", { upstreamModel: "gemini-2.5-flash" })]),
    testModel("mistral/unconfigured", [testEndpoint("mistral", { upstreamModel: "mistral-small" })]),
    testModel("demo/echo", [
      testEndpoint("demo", { upstreamModel: "echo", prompt: "0.01", completion: "0.02" }),
    ]),
    testModel(
      "google/embed-test",
      [testEndpoint("google", { upstreamModel: "text-embedding-004", maxCompletionTokens: 0 })],
      { kind: "embedding" },
    ),
    testModel(
      "test/embed-compat",
      [testEndpoint("groq", { upstreamModel: "text-embedding-3-small", maxCompletionTokens: 0 })],
      { kind: "embedding" },
    ),
    testModel(
      "test/embed",
      [testEndpoint("openai", { upstreamModel: "text-embedding-3-small", maxCompletionTokens: 0 })],
      {
        kind: "embedding",
      },
    ),
  ];
}

export interface HarnessOptions {
  keys: TestKey[];
  /** Default: the in-process bus. The harness closes whatever bus it is given. */
  bus?: EventBus;
  /** How long the keys double lets the edge cache a principal. */
  cacheTtlMs?: number;
  env?: Record<string, string>;
  settings?: Partial<EdgeSettings>;
  controlPlaneUrls?: { keys?: string; billing?: string; generations?: string };
  /** BYOK credentials the keys double hands out, per account. */
  credentials?: ReadonlyMap<string, ProviderCredential[]>;
  /** Models added to the test catalogue for one suite (the shared list stays as other suites expect it). */
  extraModels?: Model[];
  /** The edge's logger (default: silent), for a suite that reads what the edge logs. */
  logger?: Logger;
  /** Fetches media URLs a target needs as bytes (default: refused, as in production without one). */
  mediaFetcher?: MediaFetcher;
}

export interface EdgeHarness {
  url: string;
  /** RunningEdge.consoleUrl: undefined when the console is not served. */
  consoleUrl: string | undefined;
  billing: RecordingBilling;
  bus: EventBus;
  /** `openai` in the catalogue; `backup` serves `groq`; `demo` is the built-in demo provider. */
  primary: FakeServer;
  backup: FakeServer;
  demo: FakeServer;
  /** Serves `anthropic` (Messages API) and `google` (Gemini API). */
  anthropic: FakeServer;
  gemini: FakeServer;
  usageEvents(): UsageRecorded[];
  stop(): Promise<void>;
}

/**
 * A whole edge on loopback, wired the production way (config → connectEdgeDeps → startEdge): gRPC to a
 * control-plane double, fake OpenAI-compatible upstreams, and the in-process bus (or a given one, such
 * as Kafka's) for usage out and key changes in.
 */
export async function startEdgeHarness(options: HarnessOptions): Promise<EdgeHarness> {
  const billing = new RecordingBilling();
  const [primary, backup, demo, anthropic, gemini] = await Promise.all([
    startFakeOpenAi({ apiKey: [FAKE_KEY, BYOK_FAKE_KEY] }),
    startFakeOpenAi({ apiKey: [FAKE_KEY, BYOK_FAKE_KEY] }),
    startFakeOpenAi({ demo: true }),
    startFakeAnthropic({ apiKey: FAKE_KEY }),
    startFakeGemini({ apiKey: FAKE_KEY }),
  ]);
  const snapshot = testSnapshotResponse([...testModels(), ...(options.extraModels ?? [])], "test-1");
  const controlPlane = await startControlPlane({
    keys: options.keys,
    billing,
    snapshot: () => snapshot,
    ...(options.cacheTtlMs === undefined ? {} : { cacheTtlMs: options.cacheTtlMs }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  });
  const bus = options.bus ?? new InProcessEventBus();
  const config = loadEdgeConfig({
    KEYS_GRPC_ADDRESS: controlPlane.address,
    BILLING_GRPC_ADDRESS: controlPlane.address,
    KEYS_HTTP_URL: options.controlPlaneUrls?.keys ?? "http://127.0.0.1:9",
    BILLING_HTTP_URL: options.controlPlaneUrls?.billing ?? "http://127.0.0.1:9",
    GENERATIONS_HTTP_URL: options.controlPlaneUrls?.generations ?? "http://127.0.0.1:9",
    OPENAI_API_KEY: FAKE_KEY,
    OPENAI_BASE_URL: primary.baseUrl,
    GROQ_API_KEY: FAKE_KEY,
    GROQ_BASE_URL: backup.baseUrl,
    ANTHROPIC_API_KEY: FAKE_KEY,
    ANTHROPIC_BASE_URL: anthropic.baseUrl,
    GEMINI_API_KEY: FAKE_KEY,
    GEMINI_BASE_URL: gemini.baseUrl,
    DEMO_PROVIDER_URL: demo.baseUrl,
    EDGE_INSTANCE_ID: "harness",
    ...options.env,
  });
  const received: ConsumedMessage[] = [];
  const collector = await bus.subscribe({
    topic: config.topics.usage,
    groupId: `harness-${config.instanceId}`,
    handler: async (message) => void received.push(message),
  });
  const connected = connectEdgeDeps(config, { bus, logger: options.logger ?? silentLogger() });
  connected.deps.settings = { ...connected.deps.settings, random: () => 0, ...options.settings };
  if (options.mediaFetcher) connected.deps.mediaFetcher = options.mediaFetcher;
  const running = await startEdge(connected.deps, { host: "127.0.0.1", httpPort: 0 });
  return {
    url: running.httpUrl,
    consoleUrl: running.consoleUrl,
    billing,
    bus,
    primary,
    backup,
    demo,
    anthropic,
    gemini,
    usageEvents: () =>
      received.flatMap((message) => decodePayload(USAGE_RECORDED_V1, decodeEnvelope(message.value)) ?? []),
    stop: async () => {
      await running.stop();
      await connected.close();
      await collector.stop();
      await bus.close();
      await controlPlane.stop();
      await Promise.all([primary.close(), backup.close(), demo.close(), anthropic.close(), gemini.close()]);
    },
  };
}

/** An HTTP server that answers every request with what it received, standing in for a control-plane app. */
export async function startEchoApp(name: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const status = Number(request.headers["x-echo-status"] ?? 200);
      response.writeHead(status, { "content-type": "application/json", "x-echo-app": name });
      response.end(
        JSON.stringify({
          app: name,
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization ?? null,
          contentType: request.headers["content-type"] ?? null,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
