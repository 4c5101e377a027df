import { addCredits } from "@gw/billing";
import type { TopicConfig } from "@gw/config";
import { connectEdgeDeps, loadEdgeConfig, startEdge } from "@gw/edge";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { bundledCatalog, type CatalogContent, createAccount, createApiKey } from "@gw/keys";
import { silentLogger } from "@gw/logger";
import { usdToPico } from "@gw/money";
import { kafkaBrokers, uniqueName } from "@gw/testing";
import { startHealthControlPlane } from "./control-plane.js";

const HOST = "127.0.0.1";
const FAKE_KEY = "sk-fake-upstream";

/** A catalogue of two-endpoint models: `openai` (cheaper, so first by price) and `groq`. */
export function twoEndpointCatalog(modelIds: readonly string[]): CatalogContent {
  const bundled = bundledCatalog();
  const baseModel = bundled.models.find((model) => model.kind === "chat" && model.endpoints.length > 0);
  const baseEndpoint = baseModel?.endpoints[0];
  const openai = bundled.providers.find((provider) => provider.id === "openai");
  if (!baseModel || !baseEndpoint || !openai) throw new Error("the bundled catalogue has no chat model");
  const endpoint = (providerId: string, prompt: bigint) => ({
    ...baseEndpoint,
    providerId,
    upstreamModel: `${providerId}-model`,
    supportedParameters: ["max_tokens", "stream"],
    pricing: {
      promptPico: prompt,
      completionPico: prompt * 2n,
      requestPico: 0n,
      imagePico: 0n,
      cacheReadPico: 0n,
      cacheWritePico: 0n,
      reasoningPico: 0n,
    },
  });
  const models = modelIds.map((id) => ({
    ...baseModel,
    ...("aliases" in baseModel ? { aliases: [] } : {}),
    id,
    name: id,
    author: id.split("/")[0] ?? id,
    endpoints: [endpoint("openai", 1_000_000n), endpoint("groq", 2_000_000n)],
  }));
  return {
    providers: [
      { ...openai, id: "openai", name: "OpenAI" },
      { ...openai, id: "groq", name: "Groq" },
    ],
    models,
  };
}

export interface TestEdge {
  url: string;
  /** This edge's own upstream for `openai` (each edge has one, so a failure is seen by one edge only). */
  openai: FakeServer;
  stop(): Promise<void>;
}

export interface Topology {
  apiKey: string;
  keysUrl: string;
  edges: [TestEdge, TestEdge];
  /** `groq`, shared by both edges. */
  groq: FakeServer;
  stop(): Promise<void>;
}

/**
 * The production shape on loopback: the keys app (catalogue), billing and generations (health
 * aggregator) on real PostgreSQL, two edges, all on the shared Kafka broker; upstreams are fake
 * OpenAI-compatible servers.
 */
export async function startTopology(catalog: CatalogContent): Promise<Topology> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const brokers = kafkaBrokers();
    const topics: TopicConfig = {
      usage: uniqueName("health-usage"),
      keyChanges: uniqueName("health-key-changes"),
      payments: uniqueName("health-payments"),
    };
    await ensureTopics(brokers, [topics.usage, topics.keyChanges, topics.payments]);
    const bus = new KafkaEventBus({ brokers, clientId: uniqueName("health-test") });
    stops.push(() => bus.close());
    const { keys, billing, generations, keysDb, billingDb, ...plane } = await startHealthControlPlane({
      bus,
      topics,
      catalog,
    });
    stops.push(() => plane.stop());
    const account = await createAccount(keysDb, { name: "health" });
    await addCredits(billingDb, {
      accountId: account.accountId,
      amountPico: usdToPico("100"),
      kind: "grant",
      reference: `health-test:${account.accountId}`,
    });
    const apiKey = await createApiKey(keysDb, { accountId: account.accountId, name: "health" });
    const groq = await startFakeOpenAi({ apiKey: FAKE_KEY });
    stops.push(() => groq.close());
    const edge = async (name: string): Promise<TestEdge> => {
      const openai = await startFakeOpenAi({ apiKey: FAKE_KEY });
      const config = loadEdgeConfig({
        KEYS_GRPC_ADDRESS: keys.grpcAddress,
        BILLING_GRPC_ADDRESS: billing.grpcAddress,
        GENERATIONS_GRPC_ADDRESS: generations.grpcAddress,
        KEYS_HTTP_URL: keys.httpUrl,
        BILLING_HTTP_URL: billing.httpUrl,
        GENERATIONS_HTTP_URL: generations.httpUrl,
        OPENAI_API_KEY: FAKE_KEY,
        OPENAI_BASE_URL: openai.baseUrl,
        GROQ_API_KEY: FAKE_KEY,
        GROQ_BASE_URL: groq.baseUrl,
        TOPIC_USAGE: topics.usage,
        TOPIC_KEY_CHANGES: topics.keyChanges,
        TOPIC_PAYMENTS: topics.payments,
        EDGE_INSTANCE_ID: uniqueName(name),
      });
      const connected = connectEdgeDeps(config, { bus, logger: silentLogger() });
      const running = await startEdge(connected.deps, { host: HOST, httpPort: 0 });
      return {
        url: running.httpUrl,
        openai,
        stop: async () => {
          await running.stop();
          await connected.close();
          await openai.close();
        },
      };
    };
    const edges: [TestEdge, TestEdge] = [await edge("edge-a"), await edge("edge-b")];
    for (const started of edges) stops.push(() => started.stop());
    return { apiKey: apiKey.key, keysUrl: keys.httpUrl, edges, groq, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
