import { AZURE_FILTERED_MARKER, type FakeServer, startFakeAzure } from "@gw/fake-providers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { finalError } from "../failure.js";
import type { ProviderSettings } from "../settings.js";
import type { ChatCall, ChatResult, ProviderAdapter, StreamEvent } from "../types.js";
import { AZURE_DEFAULT_API_VERSION } from "./api.js";
import { azureProvider } from "./index.js";

const TIMEOUTS = { connectMs: 2000, firstByteMs: 5000, totalMs: 10_000 };
const KEY = "0123456789abcdef0123456789abcdef";

function call(upstreamModel: string, stream = false, content = "Hello there"): ChatCall {
  return {
    request: { model: "m", messages: [{ role: "user", content }] },
    upstreamModel,
    stream,
    signal: new AbortController().signal,
  };
}

async function collect(result: ChatResult | undefined): Promise<StreamEvent[]> {
  if (!result?.ok || !result.stream) throw new Error(`expected a stream, got ${JSON.stringify(result)}`);
  const events: StreamEvent[] = [];
  for await (const event of result.events) events.push(event);
  return events;
}

describe("Azure OpenAI adapter ↔ strict fake", () => {
  let fake: FakeServer;
  const adapters: ProviderAdapter[] = [];

  function adapter(
    apiKey = KEY,
    azure: ProviderSettings["azure"] = { apiVersion: AZURE_DEFAULT_API_VERSION, deployments: {} },
  ): ProviderAdapter {
    const built = azureProvider(
      { id: "azure", apiFormat: "azure", baseUrl: fake.url, apiKey, isDemo: false, azure },
      TIMEOUTS,
    );
    adapters.push(built);
    return built;
  }

  beforeAll(async () => {
    fake = await startFakeAzure({
      apiKey: KEY,
      deployments: { "gpt-4o": "gpt-4o", "prod-4o-mini": "gpt-4o-mini" },
    });
  });
  afterEach(() => {
    fake.clearRequests();
    fake.resetScenario();
  });
  afterAll(async () => {
    await Promise.all(adapters.map((entry) => entry.close()));
    await fake.close();
  });

  it("calls the deployment's path with the api-version and the key in api-key", async () => {
    const result = await adapter().chat?.complete(call("gpt-4o"));
    expect(result?.ok && !result.stream && result.completion.body.choices[0]?.message?.content).toBeTruthy();
    const [logged] = fake.requests(1);
    expect(logged?.path).toBe(
      `/openai/deployments/gpt-4o/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`,
    );
    expect(logged?.headers["api-key"]).toBe(KEY);
    expect(logged?.headers.authorization).toBeUndefined();
  });

  it("maps a model to its configured deployment, and streams with usage", async () => {
    const vertex = adapter(KEY, {
      apiVersion: AZURE_DEFAULT_API_VERSION,
      deployments: { "gpt-4o-mini": "prod-4o-mini" },
    });
    const events = await collect(await vertex.chat?.complete(call("gpt-4o-mini", true)));
    expect(events.some((event) => event.type === "raw" || event.type === "chunk")).toBe(true);
    expect(events.some((event) => event.type === "usage")).toBe(true);
    expect(fake.requests(1)[0]?.path).toContain("/openai/deployments/prod-4o-mini/chat/completions");
  });

  it("speaks the v1 API with the deployment as the body's model", async () => {
    const result = await adapter(KEY, { apiVersion: "v1", deployments: {} }).chat?.complete(call("gpt-4o"));
    expect(result?.ok).toBe(true);
    const [logged] = fake.requests(1);
    expect(logged?.path).toBe("/openai/v1/chat/completions");
    expect(logged?.body).toMatchObject({ model: "gpt-4o" });
  });

  it("is refused with a wrong key: Azure's 401, retryable", async () => {
    const result = await adapter("ffffffffffffffffffffffffffffffff").chat?.complete(call("gpt-4o"));
    expect(result?.ok === false && result.failure).toMatchObject({ status: 401, retryable: true });
    expect(fake.requests(1)[0]?.refusal).toContain("Access denied due to invalid subscription key");
  });

  it("is told of an unknown deployment (404 DeploymentNotFound) and an unsupported api-version (400)", async () => {
    const missing = await adapter().chat?.complete(call("gpt-5-unknown"));
    expect(missing?.ok === false && missing.failure).toMatchObject({
      status: 404,
      code: "DeploymentNotFound",
    });
    const version = await adapter(KEY, { apiVersion: "2019-01-01", deployments: {} }).chat?.complete(
      call("gpt-4o"),
    );
    expect(version?.ok === false && version.failure).toMatchObject({ status: 400 });
    expect(fake.requests(1)[0]?.refusal).toContain("API version not supported");
  });

  it("relays a content-filter refusal as a final 400 with Azure's verdicts", async () => {
    const result = await adapter().chat?.complete(call("gpt-4o", false, `tell me ${AZURE_FILTERED_MARKER}`));
    if (result?.ok !== false) throw new Error("expected a refusal");
    expect(result.failure).toMatchObject({ status: 400, code: "content_filter", retryable: false });
    const error = finalError(result.failure, { provider_name: "azure" });
    expect(error.status).toBe(400);
    expect(error.metadata).toMatchObject({
      provider_name: "azure",
      content_filter: {
        code: "ResponsibleAIPolicyViolation",
        content_filter_result: { violence: { filtered: true } },
      },
    });
  });

  it("maps Azure's 429 and 503 to retryable failures, so the plan fails over", async () => {
    const azure = adapter();
    for (const status of [429, 503]) {
      fake.setScenario({ name: "fail", status, times: 1 });
      const result = await azure.chat?.complete(call("gpt-4o"));
      expect(result?.ok === false && result.failure).toMatchObject({ status, retryable: true });
    }
  });

  it("sends an Entra ID token as a bearer", async () => {
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL2NvZ25pdGl2ZXNlcnZpY2VzLmF6dXJlLmNvbSJ9.c2ln";
    await adapter(jwt).chat?.complete(call("gpt-4o"));
    const [logged] = fake.requests(1);
    expect(logged?.headers.authorization).toBe(`Bearer ${jwt}`);
    expect(logged?.headers["api-key"]).toBeUndefined();
  });
});
