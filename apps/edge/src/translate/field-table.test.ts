import { readFileSync } from "node:fs";
import { MODELS } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import { type ChatRequest, parseChatRequest } from "../canonical/chat-request.js";
import { ZERO_COST } from "../canonical/cost.js";
import { middleOut } from "../canonical/middle-out.js";
import { NO_FEATURES, requestFeatures } from "../canonical/plugins.js";
import { webServing } from "../pipeline/web-native.js";
import { parseAnthropicMessage } from "../providers/anthropic/chat.js";
import { azureChatPath, azureDeployment } from "../providers/azure/api.js";
import { bedrockAnthropicBody } from "../providers/bedrock/invoke.js";
import { withoutThoughts } from "../providers/excluded-thoughts.js";
import { chatRequestBody } from "../providers/openai-compatible/chat.js";
import type { CanonicalCompletion, ChatResult, ProviderAdapter } from "../providers/types.js";
import { vertexPath, vertexTarget } from "../providers/vertex/api.js";
import { vertexClaudeBody } from "../providers/vertex/index.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { citedTextBlocks } from "./anthropic/cited-text.js";
import { anthropicRequestBody } from "./anthropic/from-openai.js";
import { chatRequestFromMessages, parseMessagesRequest } from "./anthropic/messages-request.js";
import { withWebSearchTool } from "./anthropic/web-search-tool.js";
import { converseRequestBody } from "./bedrock/converse-request.js";
import { FIELD_TABLE, renderFieldTable } from "./field-table.js";
import { geminiRequestBody } from "./gemini/from-openai.js";
import { chatRequestFromGemini, parseGenerateContent } from "./gemini/generate-request.js";
import { renderGenerateContent } from "./gemini/generate-response.js";
import { groundingMetadataOf } from "./gemini/grounding-render.js";
import { withGoogleSearch } from "./gemini/search-tool.js";
import { mediaRefusal } from "./media-support.js";
import { UntranslatableError } from "./untranslatable.js";

// Every row of the field table (field-table.ts, rendered in the README) is a test: the surface's body
// goes through the same translations the edge runs (surface → canonical → target body) and the target
// body, or the 400, is what the row says.

type Json = Record<string, unknown>;
type Surface = "chat" | "messages" | "gemini";
type Target = "openai" | "anthropic" | "gemini" | "converse";

const BASE: Readonly<Record<Surface, Json>> = {
  chat: { model: "m", messages: [{ role: "user", content: "hi" }] },
  messages: { model: "m", max_tokens: 100, messages: [{ role: "user", content: "hi" }] },
  gemini: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
};

function canonical(surface: Surface, body: Json): ChatRequest {
  if (surface === "chat") return parseChatRequest(body);
  if (surface === "messages") return chatRequestFromMessages(parseMessagesRequest(body));
  return chatRequestFromGemini(parseGenerateContent(body), "google/gemini-2.5-flash", false);
}

function send(target: Target, request: ChatRequest, supported?: readonly string[]): Json {
  if (target === "anthropic") return anthropicRequestBody(request, "claude", false);
  if (target === "gemini") return geminiRequestBody(request);
  if (target === "converse") return converseRequestBody(request);
  return JSON.parse(chatRequestBody(request, "gpt", false, true, false, { supportedParameters: supported }));
}

/** The target's body for a surface's request: the base body with `extra` on top. */
const via = (surface: Surface, target: Target, extra: Json, supported?: readonly string[]): Json =>
  send(target, canonical(surface, { ...BASE[surface], ...extra }), supported);

const refused = (surface: Surface, target: Target, extra: Json, named: RegExp) => {
  const run = () => via(surface, target, extra);
  expect(run).toThrow(UntranslatableError);
  expect(run).toThrow(named);
};

const config = (body: Json): Json => body.generationConfig as Json;
const ephemeral = { type: "ephemeral", ttl: "1h" };
const weatherTool = { type: "function", function: { name: "weather", parameters: { type: "object" } } };
const anthropicTool = { name: "weather", input_schema: { type: "object" } };
const geminiTool = { functionDeclarations: [{ name: "weather" }, { name: "time" }] };
const endpointParameters = (model: string): readonly string[] =>
  MODELS.find((entry) => entry.id === model)?.endpoints[0]?.supportedParameters ?? [];
const noMarkers = (body: Json) => expect(JSON.stringify(body)).not.toContain("cache_control");

const PDF64 = "JVBERi0xLjQK";
const WAV64 = "UklGRiQAAAA=";
const userParts = (...parts: Json[]): Json => ({
  messages: [{ role: "user", content: [{ type: "text", text: "see" }, ...parts] }],
});
const pdfFile = (file_data = `data:application/pdf;base64,${PDF64}`): Json => ({
  type: "file",
  file: { filename: "q3.pdf", file_data },
});
const wav: Json = { type: "input_audio", input_audio: { data: WAV64, format: "wav" } };
const firstParts = (body: Json, list: string, parts: string): Json[] =>
  (((body[list] as Json[])[0]?.[parts] ?? []) as Json[]).slice(1);
const asChat = (surface: Surface, extra: Json): Json[] =>
  (canonical(surface, { ...BASE[surface], ...extra }).messages[0]?.content ?? []) as Json[];

const CHECKS: Readonly<Record<string, () => void>> = {
  "media-chat-anthropic": () => {
    const body = via(
      "chat",
      "anthropic",
      userParts(
        { type: "image_url", image_url: { url: "https://x.test/a.png" } },
        { ...pdfFile(), cache_control: { type: "ephemeral" } },
        {
          type: "file",
          file: { file_data: `data:text/plain;base64,${Buffer.from("hi").toString("base64")}` },
        },
      ),
    );
    expect(firstParts(body, "messages", "content")).toEqual([
      { type: "image", source: { type: "url", url: "https://x.test/a.png" } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF64 },
        title: "q3.pdf",
        cache_control: { type: "ephemeral" },
      },
      { type: "document", source: { type: "text", media_type: "text/plain", data: "hi" } },
    ]);
  },
  "media-chat-gemini": () => {
    expect(firstParts(via("chat", "gemini", userParts(pdfFile(), wav)), "contents", "parts")).toEqual([
      { inlineData: { mimeType: "application/pdf", data: PDF64 } },
      { inlineData: { mimeType: "audio/wav", data: WAV64 } },
    ]);
    expect(
      mediaRefusal(
        parseChatRequest({ ...BASE.chat, ...userParts(pdfFile("https://x.test/a.pdf")) }),
        "gemini",
        true,
      ),
    ).toBeUndefined();
  },
  "media-chat-converse": () => {
    expect(firstParts(via("chat", "converse", userParts(pdfFile())), "messages", "content")).toEqual([
      { document: { format: "pdf", name: "q3", source: { bytes: PDF64 } } },
    ]);
  },
  "media-chat-openai-file-url": () => {
    const request = parseChatRequest({ ...BASE.chat, ...userParts(pdfFile("https://x.test/a.pdf")) });
    expect(mediaRefusal(request, "openai", false)).toMatch(/\(file URL\).*not enabled/);
    expect(mediaRefusal(request, "openai", true)).toBeUndefined();
  },
  "media-refused-audio": () => {
    refused("chat", "anthropic", userParts(wav), /\(input_audio wav\).*no audio input/);
    refused("chat", "converse", userParts(wav), /\(input_audio wav\).*no audio input/);
    refused(
      "gemini",
      "anthropic",
      { contents: [{ role: "user", parts: [{ inlineData: { mimeType: "audio/mp3", data: WAV64 } }] }] },
      /\(input_audio mp3\).*no audio input/,
    );
  },
  "media-refused-file-id": () => {
    const part = { type: "file", file: { file_id: "file-1" } };
    refused("chat", "anthropic", userParts(part), /\(file_id file-1\).*OpenAI's own storage/);
    refused("chat", "gemini", userParts(part), /\(file_id file-1\)/);
    expect(via("chat", "openai", userParts(part)).messages).toEqual([userParts(part).messages].flat());
  },
  "media-messages-document": () => {
    const document = { type: "document", source: { type: "url", url: "https://x.test/a.pdf" }, title: "A" };
    expect(asChat("messages", { messages: [{ role: "user", content: [document] }] })).toEqual([
      { type: "file", file: { filename: "A", file_data: "https://x.test/a.pdf" } },
    ]);
    refused(
      "messages",
      "gemini",
      {
        messages: [
          { role: "user", content: [{ type: "document", source: { type: "content", content: [] } }] },
        ],
      },
      /content\[0\]\.source/,
    );
  },
  "media-messages-citations": () => {
    const cited = {
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data: PDF64 },
      citations: { enabled: true },
    };
    refused(
      "messages",
      "gemini",
      { messages: [{ role: "user", content: [cited] }] },
      /^messages\[0\]\.content\[0\]\.citations /,
    );
  },
  "media-gemini-inline": () => {
    const parts = [
      { inlineData: { mimeType: "application/pdf", data: PDF64 } },
      { inlineData: { mimeType: "audio/wav", data: WAV64 } },
      { fileData: { mimeType: "image/png", fileUri: "https://x.test/a.png" } },
    ];
    expect(asChat("gemini", { contents: [{ role: "user", parts }] })).toEqual([
      { type: "file", file: { file_data: `data:application/pdf;base64,${PDF64}` } },
      { type: "input_audio", input_audio: { data: WAV64, format: "wav" } },
      { type: "image_url", image_url: { url: "https://x.test/a.png" } },
    ]);
  },
  "media-gemini-files-api": () => {
    refused(
      "gemini",
      "anthropic",
      {
        contents: [
          {
            role: "user",
            parts: [{ fileData: { mimeType: "application/pdf", fileUri: "gs://bucket/a.pdf" } }],
          },
        ],
      },
      /^contents\[0\]\.parts\[0\]\.fileData /,
    );
    const uploaded = "https://generativelanguage.googleapis.com/v1beta/files/abc";
    refused(
      "gemini",
      "openai",
      { contents: [{ role: "user", parts: [{ fileData: { mimeType: "image/png", fileUri: uploaded } }] }] },
      /^contents\[0\]\.parts\[0\]\.fileData cannot .*Google's storage/,
    );
  },
  "bedrock-claude-invoke": () => {
    const body = bedrockAnthropicBody(
      canonical("chat", { ...BASE.chat, top_k: 3, stream: true }),
      "us.anthropic.x",
    );
    expect(body).toMatchObject({ anthropic_version: "bedrock-2023-05-31", top_k: 3 });
    expect(body).not.toHaveProperty("model");
    expect(body).not.toHaveProperty("stream");
  },
  "system-chat-converse": () => {
    const body = via("chat", "converse", {
      messages: [
        { role: "system", content: "rules" },
        { role: "user", content: "a" },
        { role: "user", content: "b" },
      ],
    });
    expect(body.system).toEqual([{ text: "rules" }]);
    expect(body.messages).toEqual([{ role: "user", content: [{ text: "a" }, { text: "b" }] }]);
  },
  "sampling-chat-converse": () => {
    const body = via("chat", "converse", { max_tokens: 9, temperature: 0.2, top_p: 0.5, stop: ["x"] });
    expect(body.inferenceConfig).toEqual({ maxTokens: 9, temperature: 0.2, topP: 0.5, stopSequences: ["x"] });
  },
  "tools-chat-converse": () => {
    const chosen = via("chat", "converse", {
      tools: [weatherTool],
      tool_choice: { type: "function", function: { name: "weather" } },
    });
    expect(chosen.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "weather", inputSchema: { json: { type: "object" } } } }],
      toolChoice: { tool: { name: "weather" } },
    });
    expect(via("chat", "converse", { tools: [weatherTool], tool_choice: "none" })).not.toHaveProperty(
      "toolConfig",
    );
  },
  "refused-chat-converse": () => {
    refused("chat", "converse", { top_k: 2 }, /top_k/);
    refused("chat", "converse", { reasoning: { effort: "low" } }, /reasoning/);
    refused("chat", "converse", { response_format: { type: "json_object" } }, /response_format/);
    refused("chat", "converse", { n: 2 }, /n > 1/);
    refused(
      "chat",
      "converse",
      {
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] }],
      },
      /media bytes only/,
    );
  },
  "dropped-chat-converse": () => {
    const body = via("chat", "converse", {
      seed: 1,
      frequency_penalty: 1,
      presence_penalty: 1,
      logprobs: true,
      user: "u",
    });
    expect(Object.keys(body).sort()).toEqual(["messages"]);
  },
  "cache-chat-converse": () => {
    noMarkers(
      via("chat", "converse", {
        messages: [{ role: "user", content: [{ type: "text", text: "doc", cache_control: ephemeral }] }],
      }),
    );
  },
  "cache-chat-anthropic-parts": () => {
    const body = via("chat", "anthropic", {
      messages: [{ role: "user", content: [{ type: "text", text: "doc", cache_control: ephemeral }] }],
    });
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "doc", cache_control: ephemeral }] },
    ]);
  },
  "cache-chat-anthropic-system": () => {
    const body = via("chat", "anthropic", {
      messages: [
        { role: "system", content: [{ type: "text", text: "rules", cache_control: { type: "ephemeral" } }] },
        { role: "user", content: "hi" },
      ],
    });
    expect(body.system).toEqual([{ type: "text", text: "rules", cache_control: { type: "ephemeral" } }]);
  },
  "cache-chat-anthropic-tools": () => {
    const body = via("chat", "anthropic", { tools: [{ ...weatherTool, cache_control: ephemeral }] });
    expect(body.tools).toEqual([{ ...anthropicTool, cache_control: ephemeral }]);
  },
  "cache-chat-anthropic-tool-result": () => {
    const body = via("chat", "anthropic", {
      messages: [
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }],
        },
        {
          role: "tool",
          tool_call_id: "c1",
          content: [{ type: "text", text: "sunny", cache_control: ephemeral }],
        },
      ],
    });
    const turns = body.messages as { content: Json[] }[];
    expect(turns[2]?.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "c1",
      content: "sunny",
      cache_control: ephemeral,
    });
  },
  "cache-chat-gemini": () => {
    noMarkers(
      via("chat", "gemini", {
        messages: [
          { role: "system", content: [{ type: "text", text: "rules", cache_control: ephemeral }] },
          { role: "user", content: [{ type: "text", text: "doc", cache_control: ephemeral }] },
        ],
        tools: [{ ...weatherTool, cache_control: ephemeral }],
      }),
    );
  },
  "cache-messages-openai": () => {
    const body = via("messages", "openai", {
      system: [{ type: "text", text: "rules", cache_control: ephemeral }],
      messages: [{ role: "user", content: [{ type: "text", text: "doc", cache_control: ephemeral }] }],
      tools: [{ ...anthropicTool, cache_control: ephemeral }],
    });
    noMarkers(body);
    expect(body.messages).toEqual([
      { role: "system", content: [{ type: "text", text: "rules" }] },
      { role: "user", content: [{ type: "text", text: "doc" }] },
    ]);
  },
  "cache-messages-gemini": () => {
    const body = via("messages", "gemini", {
      system: [{ type: "text", text: "rules", cache_control: ephemeral }],
      messages: [{ role: "user", content: [{ type: "text", text: "doc", cache_control: ephemeral }] }],
    });
    noMarkers(body);
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "doc" }] }]);
  },
  "cache-messages-tool-use": () => {
    const body = via("messages", "openai", {
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "t", name: "weather", input: {}, cache_control: ephemeral }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "sunny" }] },
      ],
    });
    noMarkers(body);
    expect((body.messages as Json[])[1]).toMatchObject({ role: "assistant", tool_calls: [{ id: "t" }] });
  },
  "cache-gemini-cached-content": () =>
    refused("gemini", "anthropic", { cachedContent: "cachedContents/abc" }, /cachedContent/),
  "system-messages-openai": () => {
    const body = via("messages", "openai", {
      system: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    });
    expect((body.messages as Json[])[0]).toEqual({
      role: "system",
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    });
  },
  "system-messages-gemini": () => {
    const body = via("messages", "gemini", {
      system: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: "one" }, { text: "two" }] });
  },
  "system-chat-anthropic": () => {
    const plain = via("chat", "anthropic", {
      messages: [
        { role: "system", content: "one" },
        { role: "developer", content: "two" },
        { role: "user", content: "hi" },
      ],
    });
    expect(plain.system).toBe("one\n\ntwo");
    const parts = via("chat", "anthropic", {
      messages: [
        { role: "system", content: [{ type: "text", text: "one" }] },
        { role: "user", content: "hi" },
      ],
    });
    expect(parts.system).toEqual([{ type: "text", text: "one" }]);
  },
  "system-gemini-anthropic": () => {
    const body = via("gemini", "anthropic", { systemInstruction: { parts: [{ text: "a" }, { text: "b" }] } });
    expect(body.system).toBe("ab");
  },
  "topk-chat-anthropic": () => expect(via("chat", "anthropic", { top_k: 5 }).top_k).toBe(5),
  "topk-chat-gemini": () => expect(config(via("chat", "gemini", { top_k: 5 })).topK).toBe(5),
  "topk-gemini-anthropic": () =>
    expect(via("gemini", "anthropic", { generationConfig: { topK: 7 } }).top_k).toBe(7),
  "params-any-openai": () => {
    // The issue's case: `reasoning` to gpt-4o-mini became `reasoning_effort`, which OpenAI refuses.
    const miniParameters = endpointParameters("openai/gpt-4o-mini");
    expect(miniParameters.length).toBeGreaterThan(0);
    const body = via("chat", "openai", { reasoning: { effort: "high" }, top_k: 3, seed: 1 }, miniParameters);
    expect(body).not.toHaveProperty("reasoning_effort");
    expect(body).not.toHaveProperty("reasoning");
    expect(body).not.toHaveProperty("top_k");
    expect(body.seed).toBe(1);
    const fromGemini = via("gemini", "openai", { generationConfig: { topK: 3 } }, miniParameters);
    expect(fromGemini).not.toHaveProperty("top_k");
    // An endpoint that lists the parameter gets it.
    expect(via("chat", "openai", { top_k: 3 }, [...miniParameters, "top_k"]).top_k).toBe(3);
  },
  "stop-chat-anthropic": () =>
    expect(via("chat", "anthropic", { stop: "END" }).stop_sequences).toEqual(["END"]),
  "stop-chat-gemini": () =>
    expect(config(via("chat", "gemini", { stop: ["A", "B"] })).stopSequences).toEqual(["A", "B"]),
  "stop-messages-openai": () =>
    expect(via("messages", "openai", { stop_sequences: ["END"] }).stop).toEqual(["END"]),
  "stop-gemini-anthropic": () =>
    expect(
      via("gemini", "anthropic", { generationConfig: { stopSequences: ["END"] } }).stop_sequences,
    ).toEqual(["END"]),
  "choice-chat-anthropic": () => {
    const choice = (value: unknown) => via("chat", "anthropic", { tools: [weatherTool], tool_choice: value });
    expect(choice("required").tool_choice).toEqual({ type: "any" });
    expect(choice("none").tool_choice).toEqual({ type: "none" });
    expect(choice({ type: "function", function: { name: "weather" } }).tool_choice).toEqual({
      type: "tool",
      name: "weather",
    });
  },
  "choice-chat-gemini": () => {
    const choice = (value: unknown) =>
      via("chat", "gemini", { tools: [weatherTool], tool_choice: value }).toolConfig;
    expect(choice("none")).toEqual({ functionCallingConfig: { mode: "NONE" } });
    expect(choice({ type: "function", function: { name: "weather" } })).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["weather"] },
    });
  },
  "choice-messages-openai": () => {
    const choice = (value: Json) =>
      via("messages", "openai", { tools: [anthropicTool], tool_choice: value }).tool_choice;
    expect(choice({ type: "any" })).toBe("required");
    expect(choice({ type: "tool", name: "weather" })).toEqual({
      type: "function",
      function: { name: "weather" },
    });
  },
  "choice-gemini-anthropic": () => {
    const one = via("gemini", "anthropic", {
      tools: [geminiTool],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["time"] } },
    });
    expect(one.tool_choice).toEqual({ type: "tool", name: "time" });
    refused(
      "gemini",
      "anthropic",
      {
        tools: [geminiTool],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["weather", "time"] } },
      },
      /allowedFunctionNames/,
    );
  },
  "parallel-chat-anthropic": () =>
    expect(
      via("chat", "anthropic", { tools: [weatherTool], parallel_tool_calls: false }).tool_choice,
    ).toEqual({
      type: "auto",
      disable_parallel_tool_use: true,
    }),
  "parallel-chat-gemini": () => {
    const body = via("chat", "gemini", { tools: [weatherTool], parallel_tool_calls: false });
    expect(JSON.stringify(body)).not.toMatch(/parallel/i);
  },
  "parallel-messages-openai": () =>
    expect(
      via("messages", "openai", {
        tools: [anthropicTool],
        tool_choice: { type: "auto", disable_parallel_tool_use: true },
      }).parallel_tool_calls,
    ).toBe(false),
  "thinking-chat-anthropic-budget": () => {
    const capped = via("chat", "anthropic", { reasoning: { max_tokens: 8000 }, max_tokens: 3000 });
    expect(capped.thinking).toEqual({ type: "enabled", budget_tokens: 2999 });
    expect(capped.max_tokens).toBe(3000);
    const open = via("chat", "anthropic", { reasoning: { effort: "high" } });
    expect(open.thinking).toEqual({ type: "enabled", budget_tokens: 16_384 });
    expect(open.max_tokens).toBe(16_384 + 4096);
    expect(via("chat", "anthropic", { reasoning: { enabled: true } }).thinking).toEqual({
      type: "enabled",
      budget_tokens: 4096,
    });
  },
  "thinking-chat-anthropic-small": () =>
    refused("chat", "anthropic", { reasoning: { effort: "low" }, max_tokens: 1024 }, /at least 1024/),
  "thinking-chat-anthropic-sampling": () => {
    const on = { reasoning: { max_tokens: 2000 } };
    refused("chat", "anthropic", { ...on, temperature: 0.2 }, /temperature/);
    refused("chat", "anthropic", { ...on, top_k: 5 }, /top_k/);
    refused("chat", "anthropic", { ...on, top_p: 0.5 }, /top_p/);
    refused("chat", "anthropic", { ...on, tools: [weatherTool], tool_choice: "required" }, /tool_choice/);
    // What Anthropic accepts with thinking passes through unchanged.
    const allowed = via("chat", "anthropic", { ...on, temperature: 1, top_p: 0.95 });
    expect([allowed.temperature, allowed.top_p]).toEqual([1, 0.95]);
  },
  "thinking-chat-anthropic-off": () =>
    expect(via("chat", "anthropic", { reasoning: { enabled: false } })).not.toHaveProperty("thinking"),
  "thinking-chat-anthropic-exclude": () => {
    const body = via("chat", "anthropic", { reasoning: { max_tokens: 2048, exclude: true } });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    const answer = anthropicAnswer();
    expect(answer.body.choices[0]?.message?.reasoning).toBe("hmm");
    const result = withoutThoughts({ ok: true, stream: false, status: 200, completion: answer });
    const message = result.ok && !result.stream ? result.completion.body.choices[0]?.message : undefined;
    expect(message).toEqual({ role: "assistant", content: "blue", refusal: null });
    expect(result.ok && !result.stream && result.completion.usage?.completionTokens).toBe(40);
  },
  "thinking-gemini-thoughts": () => {
    const reasoning = (thinkingConfig: Json) =>
      canonical("gemini", { ...BASE.gemini, generationConfig: { thinkingConfig } }).reasoning;
    expect(reasoning({ thinkingBudget: 2048, includeThoughts: true })).toEqual({ max_tokens: 2048 });
    expect(reasoning({ thinkingBudget: 2048, includeThoughts: false })).toEqual({
      max_tokens: 2048,
      exclude: true,
    });
    expect(reasoning({ thinkingBudget: 2048 })).toEqual({ max_tokens: 2048, exclude: true });
    // Asked for, the target's thoughts are rendered as Gemini renders them.
    const rendered = renderGenerateContent(
      anthropicAnswer().body,
      { generationId: "g", model: "m", provider: "p", created: 1 },
      {
        usage: {
          promptTokens: 1,
          completionTokens: 1,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
        },
        cost: ZERO_COST,
        chargedPico: 0n,
        estimated: false,
        isByok: false,
      },
    );
    expect((rendered.candidates as Json[])[0]?.content).toEqual({
      role: "model",
      parts: [{ text: "hmm", thought: true }, { text: "blue" }],
    });
  },
  "thinking-chat-gemini": () => {
    const thinking = (extra: Json) => config(via("chat", "gemini", extra)).thinkingConfig;
    expect(thinking({ reasoning: { enabled: false } })).toEqual({ thinkingBudget: 0 });
    expect(thinking({ reasoning: { enabled: true } })).toEqual({ thinkingBudget: -1, includeThoughts: true });
    // Thoughts count toward maxOutputTokens: a budget is cut to 80% of it so the answer keeps room.
    expect(thinking({ reasoning: { max_tokens: 9000 }, max_tokens: 2000 })).toEqual({
      thinkingBudget: 1600,
      includeThoughts: true,
    });
    expect(thinking({ reasoning: { max_tokens: 1500 }, max_tokens: 2000 })).toEqual({
      thinkingBudget: 1500,
      includeThoughts: true,
    });
    expect(thinking({ reasoning: { effort: "high" }, max_tokens: 1000 })).toEqual({
      thinkingBudget: 800,
      includeThoughts: true,
    });
    expect(thinking({ reasoning: { max_tokens: 900, exclude: true } })).toEqual({
      thinkingBudget: 900,
      includeThoughts: false,
    });
  },
  "thinking-gemini-anthropic": () => {
    const thinking = (thinkingConfig: Json) =>
      via("gemini", "anthropic", { generationConfig: { thinkingConfig } }).thinking;
    expect(thinking({ thinkingBudget: 0 })).toBeUndefined();
    expect(thinking({ thinkingBudget: -1 })).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect(thinking({ thinkingBudget: 3000, includeThoughts: false })).toEqual({
      type: "enabled",
      budget_tokens: 3000,
    });
  },
  "thinking-gemini-openai": () => {
    const reasoning = ["max_tokens", "reasoning"];
    const effort = (thinkingConfig: Json) =>
      via("gemini", "openai", { generationConfig: { thinkingConfig } }, reasoning).reasoning_effort;
    expect(effort({ thinkingBudget: 1000 })).toBe("low");
    expect(effort({ thinkingBudget: 20_000 })).toBe("high");
    expect(effort({ thinkingBudget: 0 })).toBeUndefined();
  },
  "thinking-messages-gemini": () => {
    const thinking = (value: Json) =>
      config(via("messages", "gemini", { max_tokens: 8000, thinking: value })).thinkingConfig;
    expect(thinking({ type: "enabled", budget_tokens: 2048 })).toEqual({
      thinkingBudget: 2048,
      includeThoughts: true,
    });
    expect(thinking({ type: "disabled" })).toEqual({ thinkingBudget: 0 });
    expect(thinking({ type: "adaptive" })).toEqual({ thinkingBudget: -1, includeThoughts: true });
  },
  "safety-gemini-anthropic": () =>
    refused(
      "gemini",
      "anthropic",
      { safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }] },
      /safetySettings/,
    ),
  "safety-gemini-openai": () =>
    refused(
      "gemini",
      "openai",
      { safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }] },
      /safetySettings/,
    ),
  "safety-chat-gemini": () => {
    const settings = [{ category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_LOW_AND_ABOVE" }];
    const body = via("chat", "gemini", { safety_settings: settings });
    expect(body.safetySettings).toEqual(settings);
    expect(body).not.toHaveProperty("safety_settings");
  },
  "format-chat-anthropic-schema": () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const body = via("chat", "anthropic", {
      response_format: { type: "json_schema", json_schema: { name: "x", schema } },
    });
    expect(body.output_config).toEqual({ format: { type: "json_schema", schema } });
  },
  "format-chat-anthropic-object": () =>
    refused("chat", "anthropic", { response_format: { type: "json_object" } }, /json_object/),
  "format-chat-gemini": () => {
    const schema = { type: "object" };
    expect(
      config(
        via("chat", "gemini", {
          response_format: { type: "json_schema", json_schema: { name: "x", schema } },
        }),
      ),
    ).toEqual({ responseMimeType: "application/json", responseJsonSchema: schema });
    expect(config(via("chat", "gemini", { response_format: { type: "json_object" } }))).toEqual({
      responseMimeType: "application/json",
    });
  },
  "format-messages-openai": () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    const body = via("messages", "openai", { output_config: { format: { type: "json_schema", schema } } });
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "output", schema, strict: true },
    });
  },
  "format-gemini-anthropic": () =>
    refused(
      "gemini",
      "anthropic",
      { generationConfig: { responseMimeType: "application/json" } },
      /json_object/,
    ),
  "seed-chat-gemini": () => expect(config(via("chat", "gemini", { seed: 42 })).seed).toBe(42),
  "seed-chat-anthropic": () => {
    const body = via("chat", "anthropic", { seed: 42, frequency_penalty: 0.5, presence_penalty: 0.5 });
    expect(JSON.stringify(body)).not.toMatch(/seed|penalty/);
  },
  "logprobs-chat-anthropic": () =>
    expect(JSON.stringify(via("chat", "anthropic", { logprobs: true, top_logprobs: 2 }))).not.toMatch(
      /logprobs/,
    ),
  "logprobs-chat-gemini": () =>
    expect(JSON.stringify(via("chat", "gemini", { logprobs: true, top_logprobs: 2 }))).not.toMatch(
      /logprobs/i,
    ),
  "logprobs-gemini-other": () =>
    refused("gemini", "openai", { generationConfig: { responseLogprobs: true } }, /responseLogprobs/),
  "user-chat-anthropic": () =>
    expect(via("chat", "anthropic", { user: "u-1" }).metadata).toEqual({ user_id: "u-1" }),
  "user-messages-openai": () =>
    expect(via("messages", "openai", { metadata: { user_id: "u-1" } }).user).toBe("u-1"),
  "user-chat-gemini": () =>
    expect(JSON.stringify(via("chat", "gemini", { user: "u-1" }))).not.toContain("u-1"),
  "account-chat-other": () => {
    const extra = { store: false, metadata: { a: "b" }, prompt_cache_key: "k", service_tier: "auto" };
    for (const target of ["anthropic", "gemini"] as const)
      expect(JSON.stringify(via("chat", target, extra))).not.toMatch(
        /store|prompt_cache_key|service_tier|"a"/,
      );
  },
  "unknown-chat-other": () => {
    refused("chat", "anthropic", { web_search_options: {} }, /web_search_options/);
    refused("chat", "gemini", { audio: { voice: "x" } }, /audio/);
  },
  "nested-chat-other": () => {
    const call = { id: "c1", type: "function", function: { name: "weather", arguments: "{}" } };
    const cases: [Json, RegExp][] = [
      [{ messages: [{ role: "user", content: "hi", foo: 1 }] }, /^messages\[0\]\.foo /],
      [
        { messages: [{ role: "user", content: [{ type: "text", text: "hi", lang: "en" }] }] },
        /^messages\[0\]\.content\[0\]\.lang /,
      ],
      [
        {
          messages: [
            {
              role: "user",
              content: [{ type: "image_url", image_url: { url: "https://x/i.png", size: 2 } }],
            },
          ],
        },
        /^messages\[0\]\.content\[0\]\.image_url\.size /,
      ],
      [
        {
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", tool_calls: [{ ...call, function: { ...call.function, bar: 1 } }] },
            { role: "tool", tool_call_id: "c1", content: "sunny" },
          ],
        },
        /^messages\[1\]\.tool_calls\[0\]\.function\.bar /,
      ],
      [
        { tools: [{ ...weatherTool, function: { ...weatherTool.function, bar: 1 } }] },
        /^tools\[0\]\.function\.bar /,
      ],
      [{ tools: [{ ...weatherTool, extra: true }] }, /^tools\[0\]\.extra /],
      [
        { tools: [weatherTool], tool_choice: { type: "function", function: { name: "weather", x: 1 } } },
        /^tool_choice\.function\.x /,
      ],
    ];
    for (const [extra, named] of cases) {
      refused("chat", "anthropic", extra, named);
      refused("chat", "gemini", extra, named);
      // An OpenAI-compatible target gets the member as sent.
      expect(JSON.stringify(via("chat", "openai", extra))).toMatch(/"(foo|lang|size|bar|extra|x)":/);
    }
    // What the API itself hands out on an assistant turn may come back, null or not.
    const echoed = via("chat", "anthropic", {
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "yes", refusal: null, reasoning: "r", annotations: [], audio: null },
        { role: "user", content: "ok" },
      ],
    });
    expect((echoed.messages as Json[])[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "yes" }],
    });
  },
  "nested-chat-hints": () => {
    const extra = {
      messages: [
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AA", detail: "low" } }],
        },
      ],
      tools: [{ ...weatherTool, function: { ...weatherTool.function, strict: true } }],
    };
    for (const target of ["anthropic", "gemini"] as const)
      expect(JSON.stringify(via("chat", target, extra))).not.toMatch(/strict|detail/);
  },
  "nested-messages-other": () => {
    const cases: [Json, RegExp][] = [
      [{ messages: [{ role: "user", content: "hi", foo: 1 }] }, /^messages\[0\]\.foo /],
      [
        {
          messages: [
            { role: "user", content: "hi" },
            {
              role: "assistant",
              content: [{ type: "text", text: "x", citations: [{ type: "char_location" }] }],
            },
            { role: "user", content: "ok" },
          ],
        },
        /^messages\[1\]\.content\[0\]\.citations /,
      ],
      [
        {
          messages: [
            {
              role: "user",
              content: [{ type: "image", source: { type: "url", url: "https://x/i.png", detail: 1 } }],
            },
          ],
        },
        /^messages\[0\]\.content\[0\]\.source\.detail /,
      ],
      [{ system: [{ type: "text", text: "s", citations: [] }] }, /^system\[0\]\.citations /],
      [{ tools: [{ ...anthropicTool, strict: true }] }, /^tools\[0\]\.strict /],
      [{ tools: [anthropicTool], tool_choice: { type: "auto", extra: 1 } }, /^tool_choice\.extra /],
      [{ metadata: { user_id: "u", tag: "t" } }, /^metadata\.tag /],
      [{ thinking: { type: "enabled", budget_tokens: 2048, display: "x" } }, /^thinking\.display /],
    ];
    for (const [extra, named] of cases) {
      refused("messages", "openai", extra, named);
      refused("messages", "gemini", extra, named);
    }
    // Null is absent: an assistant turn echoed with `citations: null` translates.
    const echoed = via("messages", "openai", {
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "text", text: "yes", citations: null }] },
        { role: "user", content: "ok" },
      ],
    });
    expect((echoed.messages as Json[])[1]).toMatchObject({ role: "assistant", content: "yes" });
  },
  "unknown-messages-other": () => {
    refused("messages", "openai", { context_management: {} }, /context_management/);
    refused("messages", "openai", { output_config: { effort: "low" } }, /output_config.effort/);
    refused("messages", "gemini", { mcp_servers: [] }, /mcp_servers/);
  },
  "unknown-gemini-other": () => {
    refused("gemini", "openai", { labels: { a: "b" } }, /labels/);
    refused(
      "gemini",
      "anthropic",
      { generationConfig: { responseModalities: ["TEXT"] } },
      /responseModalities/,
    );
  },
  "nested-gemini-other": () => {
    const cases: [Json, RegExp][] = [
      [{ contents: [{ role: "user", parts: [{ text: "hi" }], extra: 1 }] }, /^contents\[0\]\.extra /],
      [
        { contents: [{ role: "user", parts: [{ text: "hi", videoMetadata: { fps: 1 } }] }] },
        /^contents\[0\]\.parts\[0\]\.videoMetadata /,
      ],
      [
        {
          contents: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "AA", x: 1 } }] }],
        },
        /^contents\[0\]\.parts\[0\]\.inlineData\.x /,
      ],
      [
        { tools: [{ functionDeclarations: [{ name: "weather", behavior: "NON_BLOCKING" }] }] },
        /^tools\[0\]\.functionDeclarations\[0\]\.behavior /,
      ],
      [{ toolConfig: { retrievalConfig: {} } }, /^toolConfig\.retrievalConfig /],
      [
        { tools: [geminiTool], toolConfig: { functionCallingConfig: { mode: "AUTO", x: 1 } } },
        /^toolConfig\.functionCallingConfig\.x /,
      ],
      [
        { generationConfig: { thinkingConfig: { thinkingBudget: 1024, future: true } } },
        /^generationConfig\.thinkingConfig\.future /,
      ],
    ];
    for (const [extra, named] of cases) {
      refused("gemini", "anthropic", extra, named);
      refused("gemini", "openai", extra, named);
    }
  },
  "cloud-vertex-claude-model": () => {
    const request = canonical("chat", BASE.chat);
    const body = vertexClaudeBody(
      { request, upstreamModel: "x", stream: false, signal: new AbortController().signal },
      "claude",
    );
    const { model: _model, ...anthropic } = send("anthropic", request);
    expect(body).not.toHaveProperty("model");
    expect(body).toEqual({ anthropic_version: "vertex-2023-10-16", ...anthropic });
    const target = vertexTarget("claude-sonnet-4@20250514", { project: "my-project", location: "us-east5" });
    if ("problem" in target) throw new Error(target.problem);
    expect(vertexPath(target, false)).toMatch(
      /publishers\/anthropic\/models\/claude-sonnet-4@20250514:rawPredict$/,
    );
    expect(vertexPath(target, true)).toMatch(/:streamRawPredict$/);
  },
  "cloud-vertex-claude-version": () => {
    const request = canonical("messages", BASE.messages);
    const body = vertexClaudeBody(
      { request, upstreamModel: "x", stream: true, signal: new AbortController().signal },
      "claude",
    );
    expect(body.anthropic_version).toBe("vertex-2023-10-16");
  },
  "cloud-vertex-gemini": () => {
    const target = vertexTarget("gemini-2.5-pro", { project: "my-project", location: "global" });
    if ("problem" in target) throw new Error(target.problem);
    expect(vertexPath(target, false)).toBe(
      "/v1/projects/my-project/locations/global/publishers/google/models/gemini-2.5-pro:generateContent",
    );
  },
  "cloud-azure-model": () => {
    const options = { apiVersion: "2024-10-21", deployments: { "gpt-4o": "prod-4o" } };
    expect(azureChatPath(azureDeployment("gpt-4o", options), options.apiVersion)).toBe(
      "/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21",
    );
    expect(azureDeployment("gpt-4.1", options)).toBe("gpt-4.1");
    expect(azureChatPath("prod-4o", "v1")).toBe("/openai/v1/chat/completions");
  },
  "plugins-removed": () => {
    const extra = { plugins: [{ id: "file-parser", enabled: false }], transforms: [] };
    for (const target of ["openai", "anthropic", "gemini", "converse"] as const) {
      const body = via("chat", target, extra);
      expect(body).not.toHaveProperty("plugins");
      expect(body).not.toHaveProperty("transforms");
    }
  },
  "plugins-unknown": () => {
    const features = (plugins: Json[]) => () => requestFeatures(canonical("chat", { ...BASE.chat, plugins }));
    expect(features([{ id: "response-healing" }])).toThrow(
      'plugins[0].id: unsupported plugin "response-healing"',
    );
    expect(features([{ id: "file-parser", ocr: true }])).toThrow(/plugins\[0\]: .*ocr/);
    expect(features([{ id: "moderation", enabled: false }])()).toEqual(NO_FEATURES);
  },
  "plugins-web": () => {
    const sent = (plugin: Json, support = { webSearch: true }) =>
      requestFeatures(canonical("chat", { ...BASE.chat, plugins: [plugin] }), support);
    // Native search depends on the plan: only an explicit engine "exa" needs the search API here.
    expect(() => sent({ id: "web", engine: "exa" }, { webSearch: false })).toThrow(
      "plugins[0].engine: the web plugin needs a search provider",
    );
    expect(sent({ id: "web", max_results: 3, search_prompt: "Found:" }).web).toMatchObject({
      maxResults: 3,
      searchPrompt: "Found:",
      field: "plugins[0]",
    });
    expect(requestFeatures({ model: "openai/gpt-4o:online" }, { webSearch: true }).web?.maxResults).toBe(5);
    expect(() => sent({ id: "web", engine: "exa", max_uses: 2 })).toThrow("plugins[0].max_uses");
    expect(() => sent({ id: "web", user_location: { country: "US" } })).toThrow("plugins[0].user_location");
    const plainRoute = {
      attempts: [{ model: testModel("a/b", []), endpoint: testEndpoint("openai") }],
      adapterFor: () => ({ apiFormat: "openai" }) as ProviderAdapter,
    };
    expect(() => webServing(sent({ id: "web" }), plainRoute, false)).toThrow(
      "plugins[0]: the web plugin needs a search provider",
    );
    expect(webServing(sent({ id: "web" }), plainRoute, true).exa).toBe(true);
  },
  "plugins-web-native": () => {
    const search = { maxUses: 3, includeDomains: ["a.example"], excludeDomains: undefined };
    const anthropic = anthropicRequestBody(canonical("chat", BASE.chat), "claude-sonnet-4", false);
    withWebSearchTool(anthropic, search);
    expect(anthropic.tools).toEqual([
      { type: "web_search_20250305", name: "web_search", max_uses: 3, allowed_domains: ["a.example"] },
    ]);
    const gemini: Record<string, unknown> = {};
    withGoogleSearch(gemini, { ...search, includeDomains: undefined });
    expect(gemini.tools).toEqual([{ googleSearch: {} }]);
    expect(() => withGoogleSearch({}, search)).toThrow(
      /Gemini's Google Search grounding takes no domain lists/,
    );
    const openai = JSON.parse(
      chatRequestBody(canonical("chat", BASE.chat), "gpt-4o-search-preview", false, true, false, {
        webSearch: { ...search, includeDomains: undefined },
      }),
    );
    expect(openai.web_search_options).toEqual({ search_context_size: "medium" });
    expect(() =>
      chatRequestBody(canonical("chat", BASE.chat), "gpt-4o-search-preview", false, true, false, {
        webSearch: search,
      }),
    ).toThrow(/takes no domain lists/);
    const cited = [
      {
        type: "url_citation",
        url_citation: { url: "https://a.example/", title: "A", start_index: 0, end_index: 2 },
      },
    ];
    expect(citedTextBlocks("ok.", cited)[0]).toMatchObject({
      text: "ok",
      citations: [{ url: "https://a.example/" }],
    });
    expect(groundingMetadataOf("ok.", cited)?.groundingChunks).toEqual([
      { web: { uri: "https://a.example/", title: "A" } },
    ]);
  },
  "plugins-file-parser": () => {
    const engine = (pdf?: Json) => () =>
      requestFeatures(
        canonical("chat", { ...BASE.chat, plugins: [{ id: "file-parser", ...(pdf ? { pdf } : {}) }] }),
      );
    expect(engine()().pdf).toBe("text");
    expect(engine({ engine: "pdf-text" })().pdf).toBe("text");
    expect(engine({ engine: "cloudflare-ai" })().pdf).toBe("text");
    expect(engine({ engine: "native" })().pdf).toBe("native");
    expect(engine({ engine: "mistral-ocr" })).toThrow(
      'plugins[0].pdf.engine: PDF engine "mistral-ocr" is not offered',
    );
    expect(engine({ engine: "x" })).toThrow('unsupported PDF engine "x"');
  },
  "transforms-middle-out": () => {
    for (const extra of [{ transforms: ["middle-out"] }, { plugins: [{ id: "context-compression" }] }])
      expect(requestFeatures(canonical("chat", { ...BASE.chat, ...extra })).middleOut).toBe(true);
    const long = {
      ...BASE.chat,
      messages: [1, 2, 3, 4, 5].map((turn) => ({ role: "user", content: `${turn} ${"w ".repeat(400)}` })),
    };
    const compressed = middleOut(canonical("chat", long), 650);
    expect(compressed.messages.map((message) => String(message.content).charAt(0))).toEqual(["1", "2", "5"]);
  },
  "transforms-unknown": () => {
    const run = () => requestFeatures(canonical("chat", { ...BASE.chat, transforms: ["squash"] }));
    expect(run).toThrow('transforms[0]: unsupported transform "squash"');
  },
};

/** An Anthropic answer with a signed thinking block, in canonical form. */
function anthropicAnswer(): CanonicalCompletion {
  const parsed: CanonicalCompletion | Failure = parseAnthropicMessage({
    id: "msg_1",
    content: [
      { type: "thinking", thinking: "hmm", signature: "sig" },
      { type: "text", text: "blue" },
    ],
    stop_reason: "end_turn",
    usage: { input_tokens: 5, output_tokens: 40 },
  });
  if ("retryable" in parsed) throw new Error("not a message");
  return parsed;
}
type Failure = Extract<ChatResult, { ok: false }>["failure"];

/** The README's rows, cell by cell (biome pads Markdown tables, so spacing is not compared). */
function tableCells(markdown: string): string[][] {
  return markdown
    .split("\n")
    .filter((line) => line.trim().startsWith("|") && !/^\|[\s|:-]+\|$/.test(line.trim()))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

describe("field decisions across formats (apps/edge/README.md)", () => {
  it("the README shows this table", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const start = readme.indexOf("<!-- field-table:start -->");
    const end = readme.indexOf("<!-- field-table:end -->");
    expect(start).toBeGreaterThan(-1);
    expect(tableCells(readme.slice(start, end))).toEqual(tableCells(renderFieldTable()));
  });

  it("every row has a test and every test a row", () => {
    expect(Object.keys(CHECKS).sort()).toEqual(FIELD_TABLE.map((entry) => entry.id).sort());
  });

  for (const entry of FIELD_TABLE)
    it(`${entry.id}: ${entry.field} → ${entry.target}, ${entry.decision}`, () => {
      const check = CHECKS[entry.id];
      expect(check).toBeDefined();
      check?.();
    });
});
