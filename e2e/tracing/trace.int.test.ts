import { MemoryAdmissionStore } from "@gw/admission-store";
import { PrincipalResolver } from "@gw/auth";
import {
  addCredits,
  SCHEMA as BILLING_SCHEMA,
  type BillingTables,
  migrations as billingMigrations,
  startBilling,
} from "@gw/billing";
import type { TopicConfig } from "@gw/config";
import { freePort } from "@gw/db";
import { connectEdgeDeps, loadEdgeConfig, startEdge } from "@gw/edge";
import { startFakeOpenAi } from "@gw/fake-providers";
import {
  consumeUsage,
  SCHEMA as GENERATIONS_SCHEMA,
  type GenerationsTables,
  migrations as generationsMigrations,
} from "@gw/generations";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import {
  bundledCatalog,
  connectBillingUsage,
  createAccount,
  createApiKey,
  SCHEMA as KEYS_SCHEMA,
  type KeysTables,
  migrations as keysMigrations,
  startKeys,
} from "@gw/keys";
import { silentLogger } from "@gw/logger";
import { usdToPico } from "@gw/money";
import { installMemoryTracing, SpanKind } from "@gw/telemetry";
import { describeWith, kafkaBrokers, migratedTestDatabase, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

// Issue 15: one request's trace, from the caller's traceparent through the edge, billing's Admit over
// gRPC, the provider call, and the usage event on Kafka into billing's and generations' consumers.

const HOST = "127.0.0.1";
const FAKE_KEY = "sk-fake-upstream";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

interface Harness {
  edgeUrl: string;
  apiKey: string;
  upstreamHeaders(): Record<string, string | string[] | undefined>[];
  stop(): Promise<void>;
}

async function startApps(): Promise<Harness> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const brokers = kafkaBrokers();
    const topics: TopicConfig = {
      usage: uniqueName("trace-usage"),
      keyChanges: uniqueName("trace-key-changes"),
      payments: uniqueName("trace-payments"),
    };
    await ensureTopics(brokers, [topics.usage, topics.keyChanges, topics.payments]);
    const bus = new KafkaEventBus({ brokers, clientId: uniqueName("trace-test") });
    stops.push(() => bus.close());
    const keysDb = await migratedTestDatabase<KeysTables>(KEYS_SCHEMA, keysMigrations);
    stops.push(() => keysDb.drop());
    const billingDb = await migratedTestDatabase<BillingTables>(BILLING_SCHEMA, billingMigrations);
    stops.push(() => billingDb.drop());
    const generationsDb = await migratedTestDatabase<GenerationsTables>(
      GENERATIONS_SCHEMA,
      generationsMigrations,
    );
    stops.push(() => generationsDb.drop());
    const keysAddress = `${HOST}:${await freePort()}`;
    const principals = PrincipalResolver.connect(keysAddress, {});
    stops.push(async () => principals.close());
    const shared = { bus, topics, logger: silentLogger() };
    const billing = await startBilling(
      {
        ...shared,
        database: billingDb.database,
        store: new MemoryAdmissionStore(),
        resolver: principals.resolver,
      },
      { host: HOST, httpPort: 0, grpcPort: 0 },
    );
    stops.push(() => billing.stop());
    const generations = await consumeUsage(bus, {
      topic: topics.usage,
      db: generationsDb.database.db,
      logger: silentLogger(),
    });
    stops.push(() => generations.stop());
    const usage = connectBillingUsage(billing.grpcAddress, {});
    stops.push(async () => usage.close());
    const keys = await startKeys(
      { ...shared, database: keysDb.database, billing: usage.usage, catalog: bundledCatalog() },
      { host: HOST, httpPort: 0, grpcPort: Number(keysAddress.split(":")[1]) },
    );
    stops.push(() => keys.stop());
    const account = await createAccount(keysDb.database, { name: "trace" });
    await addCredits(billingDb.database, {
      accountId: account.accountId,
      amountPico: usdToPico("10"),
      kind: "grant",
      reference: `trace-test:${account.accountId}`,
    });
    const apiKey = await createApiKey(keysDb.database, { accountId: account.accountId, name: "trace" });
    const openai = await startFakeOpenAi({ apiKey: FAKE_KEY });
    stops.push(() => openai.close());
    const config = loadEdgeConfig({
      KEYS_GRPC_ADDRESS: keysAddress,
      BILLING_GRPC_ADDRESS: billing.grpcAddress,
      KEYS_HTTP_URL: keys.httpUrl,
      BILLING_HTTP_URL: billing.httpUrl,
      GENERATIONS_HTTP_URL: "http://127.0.0.1:9",
      OPENAI_API_KEY: FAKE_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      TOPIC_USAGE: topics.usage,
      TOPIC_KEY_CHANGES: topics.keyChanges,
      TOPIC_PAYMENTS: topics.payments,
      EDGE_INSTANCE_ID: uniqueName("trace-edge"),
    });
    const connected = connectEdgeDeps(config, { bus, logger: silentLogger() });
    stops.push(() => connected.close());
    const edge = await startEdge(connected.deps, { host: HOST, httpPort: 0 });
    stops.push(() => edge.stop());
    return {
      edgeUrl: edge.httpUrl,
      apiKey: apiKey.key,
      upstreamHeaders: () => openai.requests().map((request) => request.headers),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

describeWith(["postgres", "kafka"], "one trace across edge, billing, provider and consumers", () => {
  const tracing = installMemoryTracing("trace-test");
  let harness: Harness;

  beforeAll(async () => {
    harness = await startApps();
  }, 60_000);
  afterAll(async () => {
    await harness?.stop();
    await tracing.shutdown();
  });

  it("every span of the request carries the caller's trace id, each under its parent", async () => {
    const response = await fetch(`${harness.edgeUrl}/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${harness.apiKey}`,
        "content-type": "application/json",
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hello" }] }),
    });
    expect(response.status).toBe(200);
    const inTrace = () => tracing.spans().filter((span) => span.spanContext().traceId === TRACE_ID);
    // The consumers' spans end once their batches are handled, a moment after the response (the keys
    // app's health aggregator consumes the topic too).
    const groups = () =>
      inTrace()
        .filter((span) => span.kind === SpanKind.CONSUMER)
        .map((span) => span.attributes["messaging.consumer.group.name"]);
    await expect
      .poll(groups, { timeout: 20_000 })
      .toEqual(expect.arrayContaining(["billing", "generations"]));
    const spans = inTrace();
    const named = (name: string, kind: SpanKind) =>
      spans.filter((span) => span.name === name && span.kind === kind);
    const [edge] = named("POST /v1/chat/completions", SpanKind.SERVER);
    expect(edge?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    // Billing's admission: Admit, or (the first request of a key, as here) the budget lease covering it.
    const admission = /^billing\.v1\.BillingService\/(Admit|AcquireLease)$/;
    const admitClient = spans.find((span) => span.kind === SpanKind.CLIENT && admission.test(span.name));
    expect(admitClient?.parentSpanContext?.spanId).toBe(edge?.spanContext().spanId);
    const admitServer = spans.find((span) => span.kind === SpanKind.SERVER && admission.test(span.name));
    expect(admitServer?.parentSpanContext?.spanId).toBe(admitClient?.spanContext().spanId);
    const [provider] = named("provider openai", SpanKind.CLIENT);
    expect(provider?.parentSpanContext?.spanId).toBe(edge?.spanContext().spanId);
    const consumers = named(`${harnessTopic(spans)} process`, SpanKind.CONSUMER);
    const groupNames = consumers.map((span) => span.attributes["messaging.consumer.group.name"]);
    expect(groupNames).toEqual(expect.arrayContaining(["billing", "generations"]));
    // Each is parented on the span that was active when the edge published the usage event.
    for (const consumer of consumers)
      expect(consumer.parentSpanContext?.spanId).toBe(edge?.spanContext().spanId);
    // Third-party providers are not told our trace ids.
    expect(harness.upstreamHeaders().at(-1)?.traceparent).toBeUndefined();
  }, 40_000);
});

/** The usage topic's name, from the consumer spans (it is unique per run). */
function harnessTopic(spans: ReturnType<ReturnType<typeof installMemoryTracing>["spans"]>): string {
  const consumer = spans.find((span) => span.kind === SpanKind.CONSUMER);
  return String(consumer?.attributes["messaging.destination.name"] ?? "");
}
