import type { FakeServer } from "@gw/fake-providers";
import { expect } from "vitest";

/** The three wire formats a chat model is served in, each by its strict fake. */
export type Format = "openai" | "anthropic" | "gemini";

/** One model per wire format (the catalogue's ids, as a user copies them from OpenRouter). */
export const MODELS: Readonly<Record<Format, string>> = {
  openai: "openai/gpt-4o-mini",
  anthropic: "anthropic/claude-sonnet-4",
  gemini: "google/gemini-2.5-flash",
};

export interface MatrixContext {
  readonly url: string;
  readonly apiKey: string;
  readonly format: Format;
  readonly model: string;
  /** The strict fake serving this format; its requests are cleared before each case. */
  readonly fake: FakeServer;
  /** The operator's Exa-compatible search API behind the web plugin; its requests are cleared too. */
  readonly search: FakeServer;
}

/** One client call, run once per wire format; it throws (an `expect`) when the client does not work. */
export interface MatrixCase {
  /** The client package (and, for the AI SDK and LangChain, the provider or class). */
  readonly sdk: string;
  /** What is called, as a user writes it; with `sdk`, the row of the compatibility table. */
  readonly call: string;
  run(context: MatrixContext): Promise<void>;
}

/** What a user typed comes back: the strict fakes answer `Echo: <last user text>`. */
export function expectEcho(text: string, said: string): void {
  expect(text).toContain(`Echo: ${said}`);
}

/** The call reached the fake of its format (not the demo provider or another host). */
export function expectServedBy(context: MatrixContext, calls = 1): void {
  expect(context.fake.requests().length).toBeGreaterThanOrEqual(calls);
}

/** The function tool every tool case offers; the fakes call it when asked about the weather. */
export const WEATHER_PARAMETERS = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
} as const;
