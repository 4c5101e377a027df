import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { OpenRouter } from "@openrouter/sdk";
import {
  NotFoundResponseError,
  PaymentRequiredResponseError,
  UnauthorizedResponseError,
} from "@openrouter/sdk/models/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// Issue 13: OpenRouter's error contract. `@openrouter/sdk` parses an error body with a zod schema whose
// `error.code` is an integer (the HTTP status) and only then raises its typed error classes; with the
// gateway's old string codes every error became a validation error instead. Run against the embedded
// default as a newcomer starts it, at the SDK's default path (/api/v1).

interface DevCredentials {
  api_key: string;
  management_key: string;
}

const MODEL = "demo/echo";
const hello = { model: MODEL, messages: [{ role: "user" as const, content: "Hello" }] };

describe("@openrouter/sdk raises its typed errors (embedded default)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-or-errors-"));
  let gateway: AppProcess | undefined;
  let url: string;
  let credentials: DevCredentials;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    const file = join(dataDir, "dev-credentials.json");
    credentials = await eventually(async () => {
      try {
        return JSON.parse(readFileSync(file, "utf8")) as DevCredentials;
      } catch {
        return undefined;
      }
    }, 30_000);
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sdk = (apiKey: string) => new OpenRouter({ apiKey, serverURL: `${url}/api/v1` });

  /** The typed error a call rejects with (the test fails if it resolves). */
  async function rejection(call: Promise<unknown>): Promise<unknown> {
    try {
      await call;
    } catch (error) {
      return error;
    }
    throw new Error("the call was expected to fail");
  }

  /** A new API key of the dev account with a tiny lifetime spend limit (USD). */
  async function keyWithLimit(limit: number): Promise<string> {
    const response = await fetch(`${url}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${credentials.management_key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "tiny limit", limit }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { key: string }).key;
  }

  it("401 → UnauthorizedResponseError, with the spec's message and the reason in metadata", async () => {
    const error = await rejection(sdk(`lr_live_${"0".repeat(48)}`).chat.send({ chatRequest: hello }));
    expect(error).toBeInstanceOf(UnauthorizedResponseError);
    const typed = error as UnauthorizedResponseError;
    expect(typed.statusCode).toBe(401);
    expect(typed.error).toEqual({
      code: 401,
      message: "invalid api key",
      metadata: { reason: "key_not_found" },
    });
  });

  it("404 → NotFoundResponseError, on inference and on a management route", async () => {
    const model = await rejection(
      sdk(credentials.api_key).chat.send({ chatRequest: { ...hello, model: "nope/missing" } }),
    );
    expect(model).toBeInstanceOf(NotFoundResponseError);
    expect((model as NotFoundResponseError).error.metadata).toMatchObject({ reason: "model_not_found" });
    const key = await rejection(sdk(credentials.management_key).apiKeys.get({ hash: "0".repeat(64) }));
    expect(key).toBeInstanceOf(NotFoundResponseError);
    expect((key as NotFoundResponseError).error).toMatchObject({
      code: 404,
      metadata: { reason: "key_not_found" },
    });
  });

  it("402 → PaymentRequiredResponseError when the key's limit does not cover the request", async () => {
    const tiny = await keyWithLimit(0.00001);
    const error = await rejection(sdk(tiny).chat.send({ chatRequest: { ...hello, maxTokens: 4_000 } }));
    expect(error).toBeInstanceOf(PaymentRequiredResponseError);
    const typed = error as PaymentRequiredResponseError;
    expect(typed.error).toMatchObject({
      code: 402,
      metadata: { reason: "quota_exceeded", limit_source: "key" },
    });
    // What the limit affords at demo/echo's output price after the prompt: fewer than the 4,000 asked.
    expect(typed.error.message).toMatch(/You requested up to 4000 tokens, but can only afford \d+\./);
    const affordable = typed.error.metadata?.affordable_tokens as number;
    expect(affordable).toBeGreaterThan(0);
    expect(affordable).toBeLessThan(500);
    const served = await sdk(tiny).chat.send({
      chatRequest: { ...hello, maxTokens: Math.min(affordable, 50) },
    });
    if (!("choices" in served)) throw new Error("expected a ChatResult");
    expect(served.choices[0]?.message.content).toContain("demo provider");
  });
});
