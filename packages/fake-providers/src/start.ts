import { type FakeAnthropicOptions, startFakeAnthropic } from "./anthropic/server.js";
import { type FakeBedrockOptions, startFakeBedrock } from "./bedrock/server.js";
import type { FakeServer } from "./core/server.js";
import { type FakeGeminiOptions, startFakeGemini } from "./gemini/server.js";
import { type FakeOpenAiOptions, startFakeOpenAi } from "./openai/server.js";

export interface StartFakeProvidersOptions {
  /** Applies to all three unless a server's own options say otherwise. Default 127.0.0.1. */
  readonly host?: string;
  /** A credential all three require (each server's `apiKey` overrides it). */
  readonly apiKey?: string;
  /** Per-server options; `port` 0 (the default) picks an ephemeral port. */
  readonly openai?: FakeOpenAiOptions;
  readonly anthropic?: FakeAnthropicOptions;
  readonly gemini?: FakeGeminiOptions;
  /** Bedrock checks SigV4 signatures with its own credentials, not `apiKey`. */
  readonly bedrock?: FakeBedrockOptions;
}

export interface FakeProviders {
  readonly openai: FakeServer;
  readonly anthropic: FakeServer;
  readonly gemini: FakeServer;
  readonly bedrock: FakeServer;
  /** Clears every server's request log and scenarios, for reuse between tests. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the OpenAI, Anthropic, Gemini and Bedrock fakes side by side. */
export async function startFakeProviders(options: StartFakeProvidersOptions = {}): Promise<FakeProviders> {
  const shared = {
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  };
  const started = await Promise.allSettled([
    startFakeOpenAi({ ...shared, ...options.openai }),
    startFakeAnthropic({ ...shared, ...options.anthropic }),
    startFakeGemini({ ...shared, ...options.gemini }),
    startFakeBedrock({ ...(options.host !== undefined ? { host: options.host } : {}), ...options.bedrock }),
  ]);
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failure = started.find((s) => s.status === "rejected");
  if (failure) {
    // Do not leak the servers that did start when one port was taken.
    await Promise.all(servers.map((s) => s.close()));
    throw failure.reason;
  }
  const [openai, anthropic, gemini, bedrock] = servers as [FakeServer, FakeServer, FakeServer, FakeServer];
  return {
    openai,
    anthropic,
    gemini,
    bedrock,
    reset: () => {
      for (const server of servers) {
        server.clearRequests();
        server.resetScenario();
      }
    },
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
