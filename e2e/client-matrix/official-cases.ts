import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { expect } from "vitest";
import {
  expectEcho,
  expectServedBy,
  type MatrixCase,
  type MatrixContext,
  WEATHER_PARAMETERS,
} from "./context.js";

// The providers' own SDKs at their defaults: `openai` at `/v1`, `@anthropic-ai/sdk` at the bare base
// URL (it adds `/v1/messages`), `@google/genai` at the bare base URL (it adds `/v1beta/models/…`).

const openai = (c: MatrixContext) => new OpenAI({ apiKey: c.apiKey, baseURL: `${c.url}/v1`, maxRetries: 0 });
const anthropic = (c: MatrixContext) => new Anthropic({ apiKey: c.apiKey, baseURL: c.url, maxRetries: 0 });
const genai = (c: MatrixContext) => new GoogleGenAI({ apiKey: c.apiKey, httpOptions: { baseUrl: c.url } });

const chatTools: OpenAI.ChatCompletionTool[] = [
  { type: "function", function: { name: "get_weather", parameters: WEATHER_PARAMETERS } },
];

export const officialCases: MatrixCase[] = [
  {
    sdk: "openai",
    call: "chat.completions.create",
    async run(c) {
      const completion = await openai(c).chat.completions.create({
        model: c.model,
        messages: [{ role: "user", content: "Hello chat" }],
      });
      expectEcho(completion.choices[0]?.message.content ?? "", "Hello chat");
      expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
      expectServedBy(c);
    },
  },
  {
    sdk: "openai",
    call: "chat.completions.create (stream, include_usage)",
    async run(c) {
      const stream = await openai(c).chat.completions.create({
        model: c.model,
        messages: [{ role: "user", content: "Hello chat stream" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        usage = chunk.usage ?? usage;
      }
      expectEcho(text, "Hello chat stream");
      expect(usage?.completion_tokens).toBeGreaterThan(0);
      expectServedBy(c);
    },
  },
  {
    sdk: "openai",
    call: "chat.completions.create with a function tool, then its result",
    async run(c) {
      const ask: OpenAI.ChatCompletionMessageParam = { role: "user", content: "Weather in Paris?" };
      const first = await openai(c).chat.completions.create({
        model: c.model,
        messages: [ask],
        tools: chatTools,
      });
      const message = first.choices[0]?.message;
      const call = message?.tool_calls?.[0];
      if (!message || call?.type !== "function") throw new Error("no function tool call");
      expect(call.function.name).toBe("get_weather");
      expect(JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
      const second = await openai(c).chat.completions.create({
        model: c.model,
        tools: chatTools,
        messages: [ask, message, { role: "tool", tool_call_id: call.id, content: "sunny" }],
      });
      expect(second.choices[0]?.message.content).toContain("sunny");
    },
  },
  {
    sdk: "openai",
    call: "responses.create",
    async run(c) {
      const response = await openai(c).responses.create({ model: c.model, input: "Hello responses" });
      expect(response.status).toBe("completed");
      expectEcho(response.output_text, "Hello responses");
      expect(response.usage?.output_tokens).toBeGreaterThan(0);
      expectServedBy(c);
    },
  },
  {
    sdk: "openai",
    call: "responses.create (stream)",
    async run(c) {
      const stream = await openai(c).responses.create({
        model: c.model,
        input: "Hello events",
        stream: true,
      });
      const types: string[] = [];
      let text = "";
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") text += event.delta;
      }
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      expectEcho(text, "Hello events");
    },
  },
  {
    sdk: "openai",
    call: "responses.create with a function tool, then its function_call_output",
    async run(c) {
      const tools: OpenAI.Responses.Tool[] = [
        { type: "function", name: "get_weather", parameters: WEATHER_PARAMETERS, strict: true },
      ];
      const first = await openai(c).responses.create({ model: c.model, input: "Weather in Paris?", tools });
      const call = first.output.find((item) => item.type === "function_call");
      if (call?.type !== "function_call") throw new Error("no function_call in the output");
      expect(JSON.parse(call.arguments)).toEqual({ city: "Paris" });
      const second = await openai(c).responses.create({
        model: c.model,
        tools,
        input: [
          { role: "user", content: "Weather in Paris?" },
          call,
          { type: "function_call_output", call_id: call.call_id, output: "sunny" },
        ],
      });
      expect(second.status).toBe("completed");
      expect(second.output_text).toContain("sunny");
    },
  },
  {
    sdk: "openai",
    call: "responses.create with text.format json_schema",
    async run(c) {
      const response = await openai(c).responses.create({
        model: c.model,
        input: "A city as JSON",
        text: { format: { type: "json_schema", name: "city", schema: WEATHER_PARAMETERS, strict: true } },
      });
      expect(response.status).toBe("completed");
      expect(response.text?.format).toMatchObject({ type: "json_schema", name: "city" });
      expect(response.output_text.length).toBeGreaterThan(0);
    },
  },
  {
    sdk: "openai",
    call: "completions.create",
    async run(c) {
      const completion = await openai(c).completions.create({
        model: c.model,
        prompt: "Hello legacy",
        max_tokens: 64,
      });
      expect(completion.object).toBe("text_completion");
      expectEcho(completion.choices[0]?.text ?? "", "Hello legacy");
      expectServedBy(c);
    },
  },
  {
    sdk: "openai",
    call: "chat.completions.create at OpenRouter's base URL (/api/v1)",
    async run(c) {
      const client = new OpenAI({ apiKey: c.apiKey, baseURL: `${c.url}/api/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: c.model,
        messages: [{ role: "user", content: "Hello alias" }],
      });
      expectEcho(completion.choices[0]?.message.content ?? "", "Hello alias");
    },
  },
  {
    sdk: "@anthropic-ai/sdk",
    call: "messages.create",
    async run(c) {
      const message = await anthropic(c).messages.create({
        model: c.model,
        max_tokens: 256,
        messages: [{ role: "user", content: "Hello messages" }],
      });
      const block = message.content[0];
      expectEcho(block?.type === "text" ? block.text : "", "Hello messages");
      expect(message.usage.output_tokens).toBeGreaterThan(0);
      expectServedBy(c);
    },
  },
  {
    sdk: "@anthropic-ai/sdk",
    call: "messages.stream",
    async run(c) {
      const stream = anthropic(c).messages.stream({
        model: c.model,
        max_tokens: 256,
        messages: [{ role: "user", content: "Hello message stream" }],
      });
      let text = "";
      stream.on("text", (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expectEcho(text, "Hello message stream");
      expect(final.stop_reason).toBe("end_turn");
      expect(final.usage.output_tokens).toBeGreaterThan(0);
    },
  },
  {
    sdk: "@anthropic-ai/sdk",
    call: "messages.create with a tool, then its tool_result",
    async run(c) {
      const tools: Anthropic.Tool[] = [
        { name: "get_weather", input_schema: { ...WEATHER_PARAMETERS, required: ["city"] } },
      ];
      const ask: Anthropic.MessageParam = { role: "user", content: "Weather in Paris?" };
      const first = await anthropic(c).messages.create({
        model: c.model,
        max_tokens: 256,
        tools,
        messages: [ask],
      });
      const use = first.content.find((block) => block.type === "tool_use");
      if (use?.type !== "tool_use") throw new Error("no tool_use block");
      expect(first.stop_reason).toBe("tool_use");
      expect(use.input).toEqual({ city: "Paris" });
      const second = await anthropic(c).messages.create({
        model: c.model,
        max_tokens: 256,
        tools,
        messages: [
          ask,
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "sunny" }] },
        ],
      });
      const block = second.content.find((b) => b.type === "text");
      expect(block?.type === "text" ? block.text : "").toContain("sunny");
    },
  },
  {
    sdk: "@google/genai",
    call: "models.generateContent",
    async run(c) {
      const response = await genai(c).models.generateContent({ model: c.model, contents: "Hello gemini" });
      expectEcho(response.text ?? "", "Hello gemini");
      expect(response.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
      expectServedBy(c);
    },
  },
  {
    sdk: "@google/genai",
    call: "models.generateContentStream",
    async run(c) {
      let text = "";
      for await (const chunk of await genai(c).models.generateContentStream({
        model: c.model,
        contents: "Hello gemini stream",
      }))
        text += chunk.text ?? "";
      expectEcho(text, "Hello gemini stream");
    },
  },
];
