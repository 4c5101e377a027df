import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { freePort } from "@gw/db";
import {
  AZURE_FILTERED_MARKER,
  type FakeServer,
  type FakeVertex,
  startFakeAzure,
  startFakeVertex,
} from "@gw/fake-providers";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// Issue 31: Claude and Gemini served by Google Vertex AI, GPT by Azure OpenAI, driven by the official SDKs
// at their defaults through the embedded gateway (a process) whose only real providers are the strict
// fakes: Vertex exchanging a service-account assertion at its fake token endpoint, Azure checking the
// key, deployment and api-version. No first-party key is set, so every answer below came through a cloud.

const EMAIL = "gateway-e2e@test-project.iam.gserviceaccount.com";
const AZURE_KEY = "e2e0123456789abcdef0123456789abc";

describe("cloud providers through the official SDKs", () => {
  let vertex: FakeVertex;
  let azure: FakeServer;
  let gateway: AppProcess;
  let url = "";
  let apiKey = "";
  let dataDir = "";

  beforeAll(async () => {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    vertex = await startFakeVertex({
      serviceAccounts: [
        {
          clientEmail: EMAIL,
          publicKeyPem: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
        },
      ],
    });
    azure = await startFakeAzure({ apiKey: AZURE_KEY });
    const keyFile = JSON.stringify({
      type: "service_account",
      project_id: "test-project",
      private_key: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: EMAIL,
      token_uri: vertex.tokenUri,
    });
    dataDir = mkdtempSync(join(tmpdir(), "gw-cloud-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PORT: String(port),
      GW_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      VERTEX_CREDENTIALS: keyFile,
      VERTEX_BASE_URL: vertex.url,
      VERTEX_LOCATION: "us-east5",
      AZURE_OPENAI_API_KEY: AZURE_KEY,
      AZURE_OPENAI_BASE_URL: azure.url,
    };
    for (const name of [
      "DATABASE_URL",
      "REDIS_URL",
      "KAFKA_BROKERS",
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
      "GEMINI_API_KEY",
    ])
      env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    apiKey = await eventually(async () => {
      try {
        return (
          JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as { api_key: string }
        ).api_key;
      } catch {
        return undefined;
      }
    }, 30_000);
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([vertex?.close(), azure?.close()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const lastVertexPath = () => vertex.requests(1)[0]?.path ?? "";

  it("@anthropic-ai/sdk: Claude through Vertex's rawPredict, streamed and not", async () => {
    const client = new Anthropic({ apiKey, baseURL: url, maxRetries: 0 });
    const message = await client.messages.create({
      model: "anthropic/claude-sonnet-4",
      max_tokens: 64,
      messages: [{ role: "user", content: "Hello from the Anthropic SDK" }],
    });
    expect(message.content[0]?.type).toBe("text");
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(lastVertexPath()).toMatch(/\/publishers\/anthropic\/models\/claude-sonnet-4@20250514:rawPredict$/);
    const stream = client.messages.stream({
      model: "anthropic/claude-sonnet-4",
      max_tokens: 64,
      messages: [{ role: "user", content: "Stream please" }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === "text" && final.content[0].text.length).toBeGreaterThan(0);
    expect(lastVertexPath()).toMatch(/:streamRawPredict$/);
    // One service-account token served every call.
    expect(vertex.tokensIssued()).toBe(1);
  });

  it("@google/genai: Gemini through Vertex's generateContent, streamed and not", async () => {
    const client = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: url } });
    const answer = await client.models.generateContent({
      model: "gemini-2.5-flash",
      contents: "Hello from genai",
    });
    expect(answer.text?.length).toBeGreaterThan(0);
    expect(lastVertexPath()).toMatch(
      /\/locations\/us-east5\/publishers\/google\/models\/gemini-2.5-flash:generateContent$/,
    );
    let text = "";
    for await (const chunk of await client.models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "stream",
    }))
      text += chunk.text ?? "";
    expect(text.length).toBeGreaterThan(0);
    expect(lastVertexPath()).toMatch(/:streamGenerateContent\?alt=sse$/);
  });

  it("openai: GPT through an Azure deployment, streamed and not", async () => {
    const client = new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "openai/gpt-4o",
      messages: [{ role: "user", content: "Hello from the OpenAI SDK" }],
    });
    expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(azure.requests(1)[0]?.path).toBe(
      "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
    );
    let text = "";
    const stream = await client.chat.completions.create({
      model: "openai/gpt-4o",
      messages: [{ role: "user", content: "Stream please" }],
      stream: true,
    });
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(0);
  });

  it("openai: Azure's content filter reaches the caller as a 400 with its verdicts", async () => {
    const client = new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0 });
    const refused = await client.chat.completions
      .create({
        model: "openai/gpt-4o",
        messages: [{ role: "user", content: `say ${AZURE_FILTERED_MARKER}` }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    const error = (refused as InstanceType<typeof OpenAI.BadRequestError>).error as {
      metadata?: Record<string, unknown>;
    };
    expect(error.metadata).toMatchObject({ content_filter: { code: "ResponsibleAIPolicyViolation" } });
  });

  it("fails over from a 429ing Azure to nothing else and says so as a 429", async () => {
    azure.setScenario({ name: "fail", status: 429, times: 1 });
    const client = new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0 });
    const refused = await client.chat.completions
      .create({ model: "openai/gpt-4o", messages: [{ role: "user", content: "busy?" }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
  });
});
