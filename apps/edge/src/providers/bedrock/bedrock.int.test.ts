import { FAKE_AWS_CREDENTIAL, type FakeServer, startFakeBedrock } from "@gw/fake-providers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseChatRequest } from "../../canonical/chat-request.js";
import { ProviderRegistry } from "../registry.js";
import { byokProviderSettings, providerSettings } from "../settings.js";
import type { ChatResult, ProviderAdapter, StreamEvent } from "../types.js";

const TIMEOUTS = { connectMs: 2_000, firstByteMs: 5_000, totalMs: 10_000 };
const CLAUDE = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const LLAMA = "meta.llama3-3-70b-instruct-v1:0";
const request = parseChatRequest({
  model: "x",
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "hello bedrock" },
  ],
  max_tokens: 50,
});

function env(secret: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: FAKE_AWS_CREDENTIAL.accessKeyId,
    AWS_SECRET_ACCESS_KEY: secret,
    AWS_REGION: "us-west-2",
    ...extra,
  };
}

async function complete(adapter: ProviderAdapter | undefined, upstreamModel: string, stream: boolean) {
  const result = await adapter?.chat?.complete({
    request,
    upstreamModel,
    stream,
    signal: new AbortController().signal,
  });
  if (!result) throw new Error("no adapter");
  return result;
}

async function collect(result: ChatResult): Promise<StreamEvent[]> {
  if (!result.ok || !result.stream) throw new Error(`not a stream: ${JSON.stringify(result)}`);
  const events: StreamEvent[] = [];
  for await (const event of result.events) events.push(event);
  return events;
}

const text = (events: StreamEvent[]): string =>
  events
    .flatMap((event) => (event.type === "chunk" ? [event.chunk.choices?.[0]?.delta?.content ?? ""] : []))
    .join("");

// The adapter against the strict fake: every request is SigV4-verified there with the secret it holds.
describe("Bedrock adapter ↔ strict fake Bedrock", () => {
  let upstream: FakeServer;
  let registry: ProviderRegistry;
  let adapter: ProviderAdapter | undefined;

  beforeAll(async () => {
    upstream = await startFakeBedrock({ host: "127.0.0.1", port: 0 });
    registry = ProviderRegistry.fromSettings(
      providerSettings(env(FAKE_AWS_CREDENTIAL.secretAccessKey, { BEDROCK_BASE_URL: upstream.baseUrl })),
      TIMEOUTS,
    );
    adapter = registry.get("amazon-bedrock");
  });
  beforeEach(() => {
    upstream.clearRequests();
    upstream.resetScenario();
  });
  afterAll(async () => {
    await registry.close();
    await upstream.close();
  });

  it("sends Claude through InvokeModel with Bedrock's anthropic_version, the model only in the path", async () => {
    const result = await complete(adapter, CLAUDE, false);
    expect(result.ok && !result.stream && result.completion.body.choices?.[0]?.message?.content).toBe(
      "Echo: hello bedrock",
    );
    expect(result.ok && !result.stream && result.completion.usage?.completionTokens).toBeGreaterThan(0);
    const sent = upstream.requests(1)[0];
    expect(sent?.path).toBe("/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke");
    expect(sent?.body).toMatchObject({ anthropic_version: "bedrock-2023-05-31", max_tokens: 50 });
    expect(sent?.body).not.toHaveProperty("model");
    // Signed for the configured region and Bedrock's signing name.
    expect(String(sent?.headers.authorization)).toMatch(/\/us-west-2\/bedrock\/aws4_request/);
  });

  it("streams Claude from the binary event stream, usage included", async () => {
    const events = await collect(await complete(adapter, CLAUDE, true));
    expect(text(events)).toBe("Echo: hello bedrock");
    const usage = events.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage.promptTokens).toBeGreaterThan(0);
    expect(events.some((event) => event.type === "error")).toBe(false);
    expect(upstream.requests(1)[0]?.path).toMatch(/\/invoke-with-response-stream$/);
  });

  it("sends other models through Converse, translated from the canonical request", async () => {
    const result = await complete(adapter, LLAMA, false);
    expect(result.ok && !result.stream && result.completion.body.choices?.[0]?.message?.content).toBe(
      "Echo: hello bedrock",
    );
    const sent = upstream.requests(1)[0];
    expect(sent?.path).toBe("/model/meta.llama3-3-70b-instruct-v1%3A0/converse");
    expect(sent?.body).toEqual({
      messages: [{ role: "user", content: [{ text: "hello bedrock" }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { maxTokens: 50 },
    });
  });

  it("sends a PDF and an image as bytes to Converse and to Claude's InvokeModel, byte-exact (issue 32)", async () => {
    const pdf = "JVBERi0xLjQKJSVFT0YK";
    const png = "iVBORw0KGgo=";
    const media = parseChatRequest({
      model: "x",
      max_tokens: 50,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "read" },
            {
              type: "file",
              file: { filename: "Q3 report.pdf", file_data: `data:application/pdf;base64,${pdf}` },
            },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ],
    });
    const sentContent = () =>
      (upstream.requests(1)[0]?.body as { messages?: { content: unknown[] }[] } | undefined)?.messages?.[0]
        ?.content;
    const send = (upstreamModel: string) =>
      adapter?.chat?.complete({
        request: media,
        upstreamModel,
        stream: false,
        signal: new AbortController().signal,
      });
    expect((await send(LLAMA))?.ok).toBe(true);
    expect(sentContent()).toEqual([
      { text: "read" },
      { document: { format: "pdf", name: "Q3 report", source: { bytes: pdf } } },
      { image: { format: "png", source: { bytes: png } } },
    ]);
    expect((await send(CLAUDE))?.ok).toBe(true);
    expect(sentContent()).toEqual([
      { type: "text", text: "read" },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: pdf },
        title: "Q3 report.pdf",
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
    ]);
  });

  it("the strict fake refuses what Converse refuses: a document without text, more than 20 images", async () => {
    const ask = (content: unknown[]) =>
      adapter?.chat?.complete({
        request: parseChatRequest({ model: "x", max_tokens: 50, messages: [{ role: "user", content }] }),
        upstreamModel: LLAMA,
        stream: false,
        signal: new AbortController().signal,
      });
    const pdf = {
      type: "file",
      file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBERi0=" },
    };
    const alone = await ask([pdf]);
    expect(alone?.ok === false && alone.failure).toMatchObject({
      status: 400,
      message: expect.stringMatching(/document must also contain a text block/),
    });
    const png = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    const many = await ask([{ type: "text", text: "x" }, ...Array.from({ length: 21 }, () => png)]);
    expect(many?.ok === false && many.failure).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Too many images/),
    });
    // Two files of one name: the translation keeps Converse's document names unique.
    expect((await ask([{ type: "text", text: "x" }, pdf, pdf, png]))?.ok).toBe(true);
  });

  it("streams Converse events as chunks with the metadata event's usage", async () => {
    const events = await collect(await complete(adapter, LLAMA, true));
    expect(text(events)).toBe("Echo: hello bedrock");
    const finish = events.find((event) => event.type === "chunk" && event.chunk.choices?.[0]?.finish_reason);
    expect(finish?.type === "chunk" && finish.chunk.choices?.[0]?.finish_reason).toBe("stop");
    expect(events.some((event) => event.type === "usage")).toBe(true);
  });

  it("maps the fake's throttling and unavailability to retryable failures, its validation to a final 400", async () => {
    upstream.setScenario({ name: "fail", status: 429, times: 1 });
    const throttled = await complete(adapter, CLAUDE, false);
    expect(throttled.ok ? undefined : throttled.failure).toMatchObject({
      status: 429,
      code: "ThrottlingException",
      retryable: true,
    });
    upstream.setScenario({ name: "fail", status: 503, times: 1 });
    const unavailable = await complete(adapter, LLAMA, true);
    expect(unavailable.ok ? undefined : unavailable.failure).toMatchObject({
      status: 503,
      code: "ServiceUnavailableException",
      retryable: true,
    });
    const unknown = await complete(adapter, "anthropic.claude-not-a-model-v1:0", false);
    expect(unknown.ok ? undefined : unknown.failure).toMatchObject({
      status: 400,
      code: "ValidationException",
      retryable: false,
    });
  });
});

describe("the strict fake refuses what Bedrock refuses", () => {
  let upstream: FakeServer;

  beforeAll(async () => {
    upstream = await startFakeBedrock({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("refuses a request signed with the wrong secret (403 InvalidSignatureException)", async () => {
    const registry = ProviderRegistry.fromSettings(
      providerSettings(env("not-the-secret", { BEDROCK_BASE_URL: upstream.baseUrl })),
      TIMEOUTS,
    );
    try {
      const result = await complete(registry.get("amazon-bedrock"), CLAUDE, false);
      expect(result.ok ? undefined : result.failure).toMatchObject({
        status: 403,
        code: "InvalidSignatureException",
        retryable: true,
      });
      const answered = upstream.requests(1)[0];
      expect(answered?.status).toBe(403);
      expect(answered?.refusal).toContain("The request signature we calculated does not match");
    } finally {
      await registry.close();
    }
  });

  it("refuses an unsigned request (403 MissingAuthenticationTokenException)", async () => {
    const response = await fetch(`${upstream.baseUrl}/model/${encodeURIComponent(CLAUDE)}/invoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ anthropic_version: "bedrock-2023-05-31", max_tokens: 5, messages: [] }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("x-amzn-errortype")).toMatch(/^MissingAuthenticationTokenException:/);
    expect(await response.json()).toEqual({ Message: "Missing Authentication Token" });
  });

  it("refuses an unknown access key (403 UnrecognizedClientException)", async () => {
    const registry = ProviderRegistry.fromSettings(
      providerSettings({
        ...env(FAKE_AWS_CREDENTIAL.secretAccessKey, { BEDROCK_BASE_URL: upstream.baseUrl }),
        AWS_ACCESS_KEY_ID: "AKIAUNKNOWNKEY000000",
      }),
      TIMEOUTS,
    );
    try {
      const result = await complete(registry.get("amazon-bedrock"), CLAUDE, false);
      expect(result.ok ? undefined : result.failure).toMatchObject({
        status: 403,
        code: "UnrecognizedClientException",
      });
    } finally {
      await registry.close();
    }
  });
});

// BYOK: an account's own AWS credential (the secret's JSON) signs its calls, in its own region.
describe("an account's own AWS credential for Bedrock", () => {
  const account = {
    accessKeyId: "AKIAACCOUNT000000001",
    secretAccessKey: "account/secret/000000000000000000000000",
  };
  let upstream: FakeServer;

  beforeAll(async () => {
    upstream = await startFakeBedrock({
      host: "127.0.0.1",
      port: 0,
      credentials: [FAKE_AWS_CREDENTIAL, account],
    });
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("signs with the account's key and region, not the gateway's", async () => {
    const [base] = byokProviderSettings({
      BEDROCK_BASE_URL: upstream.baseUrl,
      AWS_REGION: "us-east-1",
    }).filter((entry) => entry.id === "amazon-bedrock");
    if (!base) throw new Error("no Bedrock BYOK settings");
    const registry = ProviderRegistry.fromSettings(
      [{ ...base, apiKey: JSON.stringify({ ...account, region: "eu-west-3" }) }],
      TIMEOUTS,
    );
    try {
      const result = await complete(registry.get("amazon-bedrock"), CLAUDE, false);
      expect(result.ok).toBe(true);
      expect(upstream.requests(1)[0]?.headers.authorization).toContain(`Credential=${account.accessKeyId}/`);
      expect(upstream.requests(1)[0]?.headers.authorization).toContain("/eu-west-3/bedrock/aws4_request");
    } finally {
      await registry.close();
    }
  });
});
