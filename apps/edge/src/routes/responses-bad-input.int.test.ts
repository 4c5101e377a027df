import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Bad bodies on the Responses and legacy completions routes: each is a 400 in OpenAI's error shape
// naming what is wrong, never a 500, and no provider is called.

const key = testKey("acct-responses-bad-input");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
});

afterAll(async () => {
  await edge?.stop();
});

const model = "openai/gpt-4o-mini";

const responsesCases: Array<[string, unknown, RegExp]> = [
  ["a JSON array body", [], /^body: /],
  ["no input", { model }, /^input: /],
  ["an empty input list", { model, input: [] }, /^input: /],
  ["an input item that is not an object", { model, input: ["hi"] }, /^input\[0\]: /],
  ["a null content part", { model, input: [{ role: "user", content: [null] }] }, /input\[0\]\.content\[0\]/],
  [
    "a text part without text",
    { model, input: [{ role: "user", content: [{ type: "input_text" }] }] },
    /\.text/,
  ],
  ["an unknown role", { model, input: [{ role: "robot", content: "x" }] }, /input\[0\]\.role/],
  ["content of the wrong type", { model, input: [{ role: "user", content: 5 }] }, /input\[0\]\.content/],
  [
    "an image in a system turn",
    { model, input: [{ role: "system", content: [{ type: "input_image", image_url: "https://x/a.png" }] }] },
    /input\[0\]\.content/,
  ],
  [
    "a function_call without call_id",
    { model, input: [{ type: "function_call", name: "f", arguments: "{}" }] },
    /call_id/,
  ],
  [
    "a function_call_output with an object output",
    { model, input: [{ type: "function_call_output", call_id: "c", output: { a: 1 } }] },
    /input\[0\]\.content/,
  ],
  [
    "a function tool without a name",
    { model, input: "x", tools: [{ type: "function" }] },
    /tools\[0\]\.name/,
  ],
  [
    "tool parameters that are not an object",
    { model, input: "x", tools: [{ type: "function", name: "f", parameters: "s" }] },
    /^tools\[0\]\.parameters: /,
  ],
  [
    "a json_schema format without a schema",
    { model, input: "x", text: { format: { type: "json_schema", name: "n" } } },
    /^text\.format\.schema: /,
  ],
  ["metadata that is not strings", { model, input: "x", metadata: { a: 5 } }, /^metadata\.a: /],
  ["a negative max_output_tokens", { model, input: "x", max_output_tokens: -1 }, /^max_output_tokens: /],
  [
    "an unknown reasoning effort",
    { model, input: "x", reasoning: { effort: "extreme" } },
    /^reasoning\.effort: /,
  ],
  [
    "tool_choice for a hosted tool",
    {
      model,
      input: "x",
      tools: [{ type: "function", name: "f" }],
      tool_choice: { type: "web_search_preview" },
    },
    /^tool_choice /,
  ],
  [
    "include asking for logprobs",
    { model, input: "x", include: ["message.output_text.logprobs"] },
    /^include\[0\]: /,
  ],
];

const completionsCases: Array<[string, unknown, RegExp]> = [
  ["no prompt", { model }, /^prompt: /],
  ["two prompts", { model, prompt: ["a", "b"] }, /^prompt: /],
  ["token-id prompts", { model, prompt: [1, 2, 3] }, /^prompt/],
  ["best_of", { model, prompt: "x", best_of: 2 }, /^best_of: /],
  ["a string max_tokens", { model, prompt: "x", max_tokens: "9" }, /^max_tokens: /],
];

async function post(
  path: string,
  body: unknown,
): Promise<{ status: number; body: { error?: { message?: string } } }> {
  const response = await fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: { message?: string } } };
}

describe.each([
  ["/v1/responses", responsesCases],
  ["/v1/completions", completionsCases],
] as const)("POST %s with a bad body", (path, cases) => {
  it.each(cases)("%s → 400 naming it, no provider called", async (_name, body, message) => {
    const before = edge.primary.requests().length;
    const answer = await post(path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toMatch(message);
    expect(edge.primary.requests().length).toBe(before);
  });
});
