import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { ChatOpenAI } from "@langchain/openai";
import { expect } from "vitest";
import {
  expectEcho,
  expectServedBy,
  type MatrixCase,
  type MatrixContext,
  WEATHER_PARAMETERS,
} from "./context.js";

// LangChain JS's chat classes at their documented base-URL options: `ChatOpenAI` with
// `configuration.baseURL` (`/v1`), `ChatAnthropic` with `anthropicApiUrl` (the bare URL),
// `ChatGoogleGenerativeAI` with `baseUrl` (it adds `/v1beta/{model}:generateContent`, dropping a
// leading `models/`).

type Chat = (c: MatrixContext) => BaseChatModel;

const CLASSES: readonly (readonly [string, Chat])[] = [
  [
    "@langchain/openai ChatOpenAI",
    (c) =>
      new ChatOpenAI({
        model: c.model,
        apiKey: c.apiKey,
        configuration: { baseURL: `${c.url}/v1` },
        maxRetries: 0,
      }),
  ],
  [
    "@langchain/anthropic ChatAnthropic",
    (c) => new ChatAnthropic({ model: c.model, apiKey: c.apiKey, anthropicApiUrl: c.url, maxRetries: 0 }),
  ],
  [
    "@langchain/google-genai ChatGoogleGenerativeAI",
    (c) => new ChatGoogleGenerativeAI({ model: c.model, apiKey: c.apiKey, baseUrl: c.url, maxRetries: 0 }),
  ],
];

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? "").join("")
      : "";

const invoke = (sdk: string, chat: Chat): MatrixCase => ({
  sdk,
  call: "invoke",
  async run(c) {
    const message = await chat(c).invoke("Hello LangChain");
    expectEcho(textOf(message.content), "Hello LangChain");
    expect(message.usage_metadata?.output_tokens).toBeGreaterThan(0);
    expectServedBy(c);
  },
});

const stream = (sdk: string, chat: Chat): MatrixCase => ({
  sdk,
  call: "stream",
  async run(c) {
    let text = "";
    for await (const chunk of await chat(c).stream("Hello LangChain stream")) text += textOf(chunk.content);
    expectEcho(text, "Hello LangChain stream");
    expectServedBy(c);
  },
});

const withTool = (sdk: string, chat: Chat): MatrixCase => ({
  sdk,
  call: "bindTools, invoke: a tool call",
  async run(c) {
    const model = chat(c);
    if (!model.bindTools) throw new Error(`${sdk} has no bindTools`);
    const bound = model.bindTools([
      {
        type: "function",
        function: { name: "get_weather", description: "Current weather", parameters: WEATHER_PARAMETERS },
      },
    ]);
    const message = await bound.invoke("What is the weather in Paris?");
    expect(message.tool_calls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });
  },
});

export const langchainCases: MatrixCase[] = CLASSES.flatMap(([sdk, chat]) => [
  invoke(sdk, chat),
  stream(sdk, chat),
  withTool(sdk, chat),
]);
