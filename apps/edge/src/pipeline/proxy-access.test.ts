import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { checkProxyPath, nativeModelName } from "./proxy-access.js";

function refused(method: "GET" | "POST", path: string): boolean {
  try {
    checkProxyPath(method, path);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe("proxy_path_not_allowed");
    return true;
  }
}

describe("checkProxyPath", () => {
  it("forwards inference POSTs and model lookups", () => {
    for (const path of [
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/embeddings",
      "/v1/messages",
      "/v1/messages/count_tokens",
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    ])
      expect(refused("POST", path)).toBe(false);
    for (const path of ["/v1/models", "/v1/models/gpt-4o", "/v1beta/models?pageSize=5", "/openai/v1/models"])
      expect(refused("GET", path)).toBe(false);
  });

  it("refuses other reads: stored completions, responses, anything but models", () => {
    for (const path of ["/v1/chat/completions", "/v1/responses/resp_1", "/v1/models/a/b"])
      expect(refused("GET", path)).toBe(true);
  });

  it("refuses state on the shared provider account, however the path is spelled", () => {
    for (const path of [
      "/v1/files",
      "/v1/batches",
      "/v1/messages/batches",
      "/v1/fine_tuning/jobs",
      "/v1/vector_stores",
      "/v1beta/cachedContents",
      "/v1/%66iles",
      "/v1/chat/completions/../../files",
      "/v1/chat/%2e%2e/models",
      "/v1\\files",
      "/v1/%E0%A4%A",
    ])
      expect(refused("POST", path)).toBe(true);
  });
});

describe("nativeModelName", () => {
  it("reads the body's model (OpenAI, Anthropic) or Gemini's path segment", () => {
    expect(nativeModelName("openai", "/v1/chat/completions", { model: "gpt-4o" })).toBe("gpt-4o");
    expect(nativeModelName("anthropic", "/v1/messages", { model: 3 })).toBeUndefined();
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", {})).toBe(
      "gemini-2.5-flash",
    );
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-flash", {})).toBe("gemini-2.5-flash");
  });
});
