import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileGateway, startHostileGateway, UPSTREAM_KEY } from "./hostile/gateway.js";
import { type Answer, send } from "./hostile/wire.js";
import { eventually } from "./processes.js";

// Secrets never reach the logs at any level (issue 16): the embedded default runs at LOG_LEVEL=trace
// with real provider credentials (the fakes), and traffic on every surface and management route —
// chat, embeddings, messages, count_tokens, Gemini (header and ?key=), the provider proxy for three
// providers, message batches, /v1/key, /v1/models, keys CRUD, BYOK (created, used, replaced, deleted),
// credits, generation lookup, wallet sign-in and a call with the wallet's JWT, refused credentials —
// then every line the process wrote is scanned for every secret used, and for anything shaped like
// one (gateway keys, JWTs: wallet and service tokens alike).

let gateway: HostileGateway;
const byokPlaintext = `sk-byok-trace-${randomBytes(16).toString("hex")}`;
const byokReplacement = `sk-byok-trace-new-${randomBytes(16).toString("hex")}`;
const secrets: Record<string, string> = {};
const statuses: Record<string, number> = {};

async function call(
  label: string,
  path: string,
  init: { method?: string; headers: Record<string, string>; body?: unknown },
): Promise<Answer> {
  const answer = await send(gateway.url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    path,
    headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  statuses[label] = answer.status;
  return answer;
}

const user = [{ role: "user", content: "a secret-free prompt" }];

/** A SIWE sign-in through the edge; returns the JWT. */
async function walletSignIn(): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const host = new URL(gateway.url).host;
  const message = createSiweMessage({
    domain: host,
    address: account.address,
    uri: `${gateway.url}/v1/x402/auth`,
    version: "1",
    chainId: 8453,
    nonce: generateSiweNonce(),
    issuedAt: new Date(),
  });
  const header = Buffer.from(
    JSON.stringify({ message, signature: await account.signMessage({ message }) }),
  ).toString("base64");
  const answer = await call("wallet sign-in", "/v1/x402/auth", {
    method: "POST",
    headers: { "sign-in-with-x": header },
  });
  return (answer.json as { jwt: string }).jwt;
}

async function inferenceTraffic(apiKey: string): Promise<string> {
  const bearer = { authorization: `Bearer ${apiKey}` };
  const chat = await call("chat", "/v1/chat/completions", {
    headers: bearer,
    body: { model: "openai/gpt-4o-mini", messages: user, max_tokens: 16 },
  });
  await call("chat stream", "/v1/chat/completions", {
    headers: bearer,
    body: { model: "anthropic/claude-3-5-haiku", messages: user, max_tokens: 16, stream: true },
  });
  await call("embeddings", "/v1/embeddings", {
    headers: bearer,
    body: { model: "openai/text-embedding-3-small", input: "hello" },
  });
  const anthropic = { model: "anthropic/claude-3-5-haiku", max_tokens: 16, messages: user };
  await call("messages", "/v1/messages", { headers: { "x-api-key": apiKey }, body: anthropic });
  await call("count tokens", "/v1/messages/count_tokens", {
    headers: { "x-api-key": apiKey },
    body: { model: anthropic.model, messages: user },
  });
  const gemini = { contents: [{ role: "user", parts: [{ text: "hello" }] }] };
  await call("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", {
    headers: { "x-goog-api-key": apiKey },
    body: gemini,
  });
  await call("gemini ?key=", `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${apiKey}`, {
    headers: {},
    body: gemini,
  });
  await call("proxy openai", "/openai/v1/chat/completions", {
    headers: bearer,
    body: { model: "gpt-4o-mini", messages: user, max_tokens: 16 },
  });
  await call("proxy anthropic", "/anthropic/v1/messages", {
    headers: { "x-api-key": apiKey },
    body: { ...anthropic, model: "claude-3-5-haiku-20241022" },
  });
  await call("proxy google", `/google/v1beta/models/gemini-2.5-flash:generateContent?key=${apiKey}`, {
    headers: {},
    body: gemini,
  });
  await call("batch", "/v1/messages/batches", {
    headers: { "x-api-key": apiKey },
    body: { requests: [{ custom_id: "one", params: anthropic }] },
  });
  await call("batch list", "/v1/messages/batches", { headers: { "x-api-key": apiKey } });
  await call("key info", "/v1/key", { headers: bearer });
  await call("models", "/v1/models", { headers: bearer });
  return chat.headers["x-generation-id"] ?? "";
}

beforeAll(async () => {
  gateway = await startHostileGateway({
    env: { LOG_LEVEL: "trace" },
    byokKeys: [byokPlaintext, byokReplacement],
    secondStart: true,
  });
  const management = { authorization: `Bearer ${gateway.managementKey}` };
  Object.assign(secrets, {
    apiKey: gateway.apiKey,
    managementKey: gateway.managementKey,
    upstreamKey: UPSTREAM_KEY,
    byokPlaintext,
    byokReplacement,
    byokMasterKey: gateway.byokMasterKey,
    walletJwtSecret: readFileSync(join(gateway.dataDir, "wallet-jwt.secret"), "utf8").trim(),
  });
  const serviceKeys = JSON.parse(readFileSync(join(gateway.dataDir, "service-keys.json"), "utf8")) as Record<
    string,
    { privateKey: string }
  >;
  for (const [name, pair] of Object.entries(serviceKeys)) secrets[`service key ${name}`] = pair.privateKey;

  const generationId = await inferenceTraffic(gateway.apiKey);
  // Keys CRUD with the management key, then traffic with the key it created.
  const created = await call("create key", "/api/v1/keys", { headers: management, body: { name: "traced" } });
  const { key: createdKey, data } = created.json as { key: string; data: { hash: string } };
  secrets.createdKey = createdKey;
  await call("list keys", "/api/v1/keys", { headers: management });
  await call("get key", `/api/v1/keys/${data.hash}`, { headers: management });
  await call("update key", `/api/v1/keys/${data.hash}`, {
    method: "PATCH",
    headers: management,
    body: { name: "traced, renamed" },
  });
  await call("created key info", "/v1/key", { headers: { authorization: `Bearer ${createdKey}` } });
  // BYOK: the account's own provider key, used for a call, replaced, deleted.
  const byok = await call("create BYOK", "/api/v1/byok", {
    headers: management,
    body: { provider: "openai", key: byokPlaintext, name: "own key" },
  });
  const credentialId = (byok.json as { data: { id: string } }).data.id;
  await call("BYOK chat", "/v1/chat/completions", {
    headers: { authorization: `Bearer ${createdKey}` },
    body: { model: "openai/gpt-4o-mini", messages: user, max_tokens: 16 },
  });
  await call("BYOK proxy", "/openai/v1/chat/completions", {
    headers: { authorization: `Bearer ${createdKey}` },
    body: { model: "gpt-4o-mini", messages: user, max_tokens: 16 },
  });
  await call("list BYOK", "/api/v1/byok", { headers: management });
  await call("replace BYOK", `/api/v1/byok/${credentialId}`, {
    method: "PATCH",
    headers: management,
    body: { key: byokReplacement },
  });
  await call("delete BYOK", `/api/v1/byok/${credentialId}`, { method: "DELETE", headers: management });
  await call("delete key", `/api/v1/keys/${data.hash}`, { method: "DELETE", headers: management });
  await call("credits", "/api/v1/credits", { headers: management });
  await eventually(async () => {
    const lookup = await call("generation", `/api/v1/generation?id=${generationId}`, {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    return lookup.status === 200 ? true : undefined;
  });
  await call("endpoints", "/api/v1/models/openai/gpt-4o-mini/endpoints", {
    headers: { authorization: `Bearer ${gateway.apiKey}` },
  });
  // A wallet: sign-in, then the same surfaces with its JWT (refused for want of credits: still traced).
  const jwt = await walletSignIn();
  secrets.walletJwt = jwt;
  secrets.walletJwtSignature = jwt.split(".")[2] ?? "";
  await call("wallet chat", "/v1/chat/completions", {
    headers: { authorization: `Bearer ${jwt}` },
    body: { model: "demo/echo", messages: user },
  });
  await call("wallet key info", "/v1/key", { headers: { "x-api-key": jwt } });
  // Refused credentials are secrets too: a near-miss of the real key, a forged JWT, a wrong management key.
  const nearMiss = `${gateway.apiKey.slice(0, -4)}0000`;
  secrets.nearMissKey = nearMiss;
  await call("refused key", "/v1/chat/completions", {
    headers: { authorization: `Bearer ${nearMiss}` },
    body: { model: "openai/gpt-4o-mini", messages: user },
  });
  const forged = `${jwt.slice(0, jwt.lastIndexOf(".") + 1)}${"A".repeat(86)}`;
  secrets.forgedJwt = forged;
  await call("forged JWT", "/v1/key", { headers: { authorization: `Bearer ${forged}` } });
  await call("refused management key", "/api/v1/keys", { headers: { authorization: `Bearer ${nearMiss}` } });
  // Let the usage events be consumed and logged before the process stops.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await gateway.process.stop();
}, 180_000);

afterAll(async () => {
  await gateway?.stop();
});

describe("secrets in the embedded default's trace-level logs", () => {
  it("served the traffic it claims to have run", () => {
    const served = [
      "chat",
      "chat stream",
      "embeddings",
      "messages",
      "count tokens",
      "gemini",
      "gemini ?key=",
      "proxy openai",
      "proxy anthropic",
      "proxy google",
      "batch",
      "batch list",
      "key info",
      "models",
      "list keys",
      "get key",
      "update key",
      "created key info",
      "BYOK chat",
      "BYOK proxy",
      "list BYOK",
      "replace BYOK",
      "delete BYOK",
      "delete key",
      "credits",
      "generation",
      "endpoints",
      "wallet sign-in",
      "wallet key info",
    ];
    for (const label of served) expect(statuses[label], label).toBe(200);
    expect(statuses["create key"]).toBe(201);
    expect(statuses["create BYOK"]).toBe(201);
    expect(statuses["wallet chat"]).toBe(402);
    expect(statuses["refused key"]).toBe(401);
    expect(statuses["forged JWT"]).toBe(401);
    expect(statuses["refused management key"]).toBe(401);
    // The BYOK calls reached the upstream with the account's own key (so the plaintext was in play).
    const sent = gateway.upstreams.openai.requests().map((request) => request.headers.authorization);
    expect(sent).toContain(`Bearer ${byokPlaintext}`);
  });

  it("logged at trace level (the scan reads the most verbose output there is)", () => {
    // Nothing logs at trace (10) today; debug (20) carries the request log, one line per call above.
    const lines = gateway.output().split("\n");
    expect(lines.filter((line) => line.includes('"level":20')).length).toBeGreaterThan(20);
  });

  it("has no line with any secret used", () => {
    const output = gateway.output();
    const leaks = Object.entries(secrets).filter(
      ([, secret]) => secret.length > 0 && output.includes(secret),
    );
    for (const [name, secret] of Object.entries(secrets)) expect(secret.length, name).toBeGreaterThan(16);
    expect(leaks.map(([name]) => name)).toEqual([]);
  });

  it("has nothing shaped like a gateway key or a JWT (wallet or service token)", () => {
    const output = gateway.output();
    expect(output.match(/lr_(live|mgmt)_[0-9a-f]{16,}/g) ?? []).toEqual([]);
    expect(output.match(/eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g) ?? []).toEqual([]);
    expect(output.match(/sk-(upstream|byok)[\w-]{8,}/g) ?? []).toEqual([]);
  });
});
