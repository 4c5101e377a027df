import { PROVIDERS } from "@gw/catalog";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { ProviderRegistry } from "./registry.js";
import { providerSettings } from "./settings.js";

const TIMEOUTS = { connectMs: 2_000, firstByteMs: 5_000, totalMs: 10_000 };
const request = parseChatRequest({ model: "x", messages: [{ role: "user", content: "hi" }] });

// One way to add an OpenAI-compatible provider: its catalogue line. Every such line is served by the
// shared base, and a line's dialect (OpenRouter's attribution headers) reaches the wire.
describe("ProviderRegistry from the catalogue's provider lines", () => {
  let upstream: FakeServer;
  let registry: ProviderRegistry;

  beforeAll(async () => {
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0 });
    const env: Record<string, string> = {};
    for (const info of PROVIDERS.filter((entry) => entry.apiFormat === "openai" && !entry.isDemo)) {
      env[`${info.envPrefix}_API_KEY`] = `sk-${info.id}`;
      env[`${info.envPrefix}_BASE_URL`] = upstream.baseUrl;
    }
    registry = ProviderRegistry.fromSettings(providerSettings(env), TIMEOUTS);
  });

  afterAll(async () => {
    await registry.close();
    await upstream.close();
  });

  it("serves every OpenAI-format catalogue line with its own key through the shared base", async () => {
    const ids = PROVIDERS.filter((entry) => entry.apiFormat === "openai" && !entry.isDemo).map(
      (entry) => entry.id,
    );
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) {
      const adapter = registry.get(id);
      expect(adapter?.apiFormat, id).toBe("openai");
      const result = await adapter?.chat?.complete({
        request,
        upstreamModel: "gpt-4o-mini",
        stream: false,
        signal: new AbortController().signal,
      });
      expect(result?.ok, id).toBe(true);
      const sent = upstream.requests(1)[0];
      // Keyless local servers (ollama, vllm) are configured here with a key too, which they then send.
      expect(sent?.headers.authorization, id).toBe(`Bearer sk-${id}`);
    }
  });

  it("sends OpenRouter's attribution headers from its catalogue line, and no one else's", async () => {
    const call = {
      request,
      upstreamModel: "gpt-4o-mini",
      stream: false,
      signal: new AbortController().signal,
    };
    await registry.get("openrouter")?.chat?.complete(call);
    const viaOpenRouter = upstream.requests(1)[0];
    expect(viaOpenRouter?.headers["x-title"]).toBe("Model Gateway");
    expect(viaOpenRouter?.headers["http-referer"]).toBe("https://github.com/model-gateway");
    await registry.get("groq")?.chat?.complete(call);
    expect(upstream.requests(1)[0]?.headers["x-title"]).toBeUndefined();
  });
});
