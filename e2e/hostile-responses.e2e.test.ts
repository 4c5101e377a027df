import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { hostileRouteSuite } from "./hostile/route-suite.js";
import { send } from "./hostile/wire.js";

// The hostile-input properties (fast-check, hostile/route-suite.ts) on the Responses API and the
// legacy completions route, against the embedded default as a process: for every generated case no
// 5xx, OpenAI's error shape, and a refusal forwards nothing upstream.

const BODY_LIMIT_BYTES = 1024 * 1024;
const BODY_TIMEOUT_MS = 1_500;

vi.setConfig({ testTimeout: 120_000 });

let gateway: HostileGateway;
const gw = () => gateway;

beforeAll(async () => {
  gateway = await startHostileGateway({
    env: { BODY_LIMIT: "1mb", BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) },
  });
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
});

const bearer = (): [string, string] => ["authorization", `Bearer ${gateway.apiKey}`];
const upstream = async () => gateway.upstreamCalls();
const limits = { bodyLimitBytes: BODY_LIMIT_BYTES, bodyTimeoutMs: BODY_TIMEOUT_MS };

const responsesTemplate = {
  model: "openai/gpt-4o-mini",
  instructions: "be brief",
  input: [
    { role: "user", content: [{ type: "input_text", text: "What is the weather in Rome?" }] },
    { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"Rome"}' },
    { type: "function_call_output", call_id: "c1", output: "sunny" },
  ],
  tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: {} } }],
  tool_choice: "auto",
  max_output_tokens: 16,
  temperature: 0.5,
  text: { format: { type: "json_schema", name: "w", schema: { type: "object" } } },
  metadata: { team: "a" },
  store: false,
};

describe("hostile input: Responses API", () => {
  it("serves the valid template (the properties start from a body that works)", async () => {
    const answer = await send(gateway.url, {
      method: "POST",
      path: "/v1/responses",
      headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(responsesTemplate),
    });
    expect(answer.status).toBe(200);
  });
  hostileRouteSuite(gw, {
    name: "responses",
    method: "POST",
    path: () => "/v1/responses",
    shape: "openai",
    auth: bearer,
    state: upstream,
    template: responsesTemplate,
    ...limits,
  });
});

describe("hostile input: legacy completions", () => {
  hostileRouteSuite(gw, {
    name: "completions",
    method: "POST",
    path: () => "/v1/completions",
    shape: "openai",
    auth: bearer,
    state: upstream,
    template: { model: "openai/gpt-4o-mini", prompt: "hello", max_tokens: 16, temperature: 0.5, stop: ["x"] },
    ...limits,
  });
});
