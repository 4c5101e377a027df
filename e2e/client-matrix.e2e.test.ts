import { describeWith } from "@gw/testing";
import { describe } from "vitest";
import { matrixSuite } from "./client-matrix/suite.js";

// Issue 30: the project's client matrix. Every case of client-matrix/ (the official SDKs `openai`,
// `@anthropic-ai/sdk`, `@google/genai`; `@openrouter/sdk` and `@openrouter/ai-sdk-provider`; the AI SDK's
// OpenAI, OpenAI-compatible, Anthropic and Google providers; LangChain's OpenAI, Anthropic and Google
// chat classes), streams included, runs against a model served in each wire format (OpenAI, Anthropic,
// Gemini) through the strict fakes, never the demo provider, on the embedded default and the split
// plane. The run's outcomes are the compatibility table's source (scripts/compat-table.mjs).

describe("client matrix (embedded default)", matrixSuite("embedded"));
describeWith(["postgres", "redis", "kafka"], "client matrix (split plane)", matrixSuite("split"));
