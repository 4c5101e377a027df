import { PROVIDERS } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { PROXY_ENDPOINTS_BY_FORMAT } from "../providers/registry.js";
import { checkProxyPath, normaliseProxyPath } from "./proxy-path.js";

function refused(providerId: string, method: "GET" | "POST", path: string): boolean {
  try {
    checkProxyPath(providerId, method, path);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe("proxy_path_not_allowed");
    return true;
  }
}

/** The API base path each provider's SDK writes before an endpoint (`/v1`, Groq's `/openai/v1`, none). */
function basePath(providerId: string): string {
  const url = PROVIDERS.find((provider) => provider.id === providerId)?.defaultBaseUrl;
  return url ? new URL(url).pathname.replace(/\/+$/, "") : "/v1";
}

// Paths that reach state on the gateway's shared provider account, or mint credentials billed to it.
const REFUSED: ReadonlyArray<[string, "GET" | "POST", string]> = [
  ["openai", "POST", "/v1/files"],
  ["openai", "GET", "/v1/files"],
  ["openai", "POST", "/v1/batches"],
  ["openai", "GET", "/v1/responses/resp_other_tenant"],
  ["openai", "GET", "/v1/chat/completions/chatcmpl-other"],
  ["openai", "GET", "/v1/chat/completions"],
  ["openai", "POST", "/v1/realtime/sessions"],
  ["openai", "POST", "/v1/realtime/client_secrets"],
  ["openai", "POST", "/v1/videos"],
  ["openai", "POST", "/v1/fine_tuning/jobs"],
  ["openai", "POST", "/v1/vector_stores"],
  ["openai", "GET", "/v1/organization/costs"],
  ["anthropic", "POST", "/v1/messages/batches"],
  ["anthropic", "GET", "/v1/files"],
  ["google", "POST", "/v1beta/cachedContents"],
  ["google", "GET", "/v1beta/operations/op-1"],
  ["google", "POST", "/v1beta/models/veo-3:predictLongRunning"],
  ["google", "POST", "/v1beta/tunedModels/mine:generateContent"],
];

/** Spellings of one path that some server, proxy or decoder may read as the path itself. */
function variants(path: string): string[] {
  const [head = "", ...rest] = path.slice(1).split("/");
  const tail = rest.join("/");
  const last = path.split("/").pop() ?? "";
  const encodedChar = (value: string) =>
    value.replace(/[a-z]/, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return [
    path.toUpperCase(),
    path.replace(/[a-z]+$/, (word) => word.toUpperCase()),
    `${path};x=1`,
    `${path}%3b`,
    `${path}%3B`,
    `${path}#x`,
    `${path}%23x`,
    `${path}/`,
    `${path}/.`,
    `${path}/..`,
    `${path}%2f`,
    `${path}%2F..`,
    `/${head}//${tail}`,
    `/${head}/./${tail}`,
    `/${head}/x/../${tail}`,
    `/${head}/%2e/${tail}`,
    `/${head}/%2e%2e/${head}/${tail}`,
    `/${head}\\${tail}`,
    `/${head}%5c${tail}`,
    path.replace(last, encodedChar(last)),
    path.replace(last, encodedChar(last).replace("%", "%25")),
    `${path}%00`,
    `${path}\u0000`,
    `${path}%ff`,
    `${path}%e0%a4%a`,
    `/v1/chat/completions/../..${path}`,
    `/v1/chat/completions/%2e%2e/%2e%2e${path}`,
  ];
}

describe("checkProxyPath: the provider proxy's allow-list", () => {
  it("forwards every listed endpoint of every provider, with and without the API base path", () => {
    for (const provider of PROVIDERS) {
      for (const endpoint of PROXY_ENDPOINTS_BY_FORMAT[provider.apiFormat]) {
        const base = basePath(provider.id);
        for (const path of new Set([endpoint.example, `${base}${endpoint.example}`])) {
          if (endpoint.example.startsWith(base) && path !== endpoint.example) continue;
          expect(
            refused(provider.id, endpoint.method, path),
            `${provider.id} ${endpoint.method} ${path}`,
          ).toBe(false);
        }
      }
    }
  });

  it("keeps the query and sends the path exactly as matched", () => {
    expect(
      checkProxyPath("google", "POST", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"),
    ).toEqual({ path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent", query: "?alt=sse" });
    expect(checkProxyPath("openai", "GET", "/v1/models/gpt-4o%2Dmini")).toEqual({
      path: "/v1/models/gpt-4o-mini",
      query: "",
    });
  });

  it("refuses a listed endpoint under the wrong method or the wrong provider's format", () => {
    expect(refused("openai", "GET", "/v1/chat/completions")).toBe(true);
    expect(refused("openai", "POST", "/v1/models")).toBe(true);
    expect(refused("anthropic", "POST", "/v1/chat/completions")).toBe(true);
    expect(refused("google", "POST", "/v1/messages")).toBe(true);
    expect(refused("nobody", "POST", "/v1/chat/completions")).toBe(true);
  });

  it("refuses every path that reaches shared provider state, in every spelling", () => {
    let cases = 0;
    for (const [providerId, method, path] of REFUSED) {
      expect(refused(providerId, method, path), `${providerId} ${method} ${path}`).toBe(true);
      for (const variant of variants(path)) {
        cases++;
        expect(
          refused(providerId, method, variant),
          `${providerId} ${method} ${JSON.stringify(variant)}`,
        ).toBe(true);
      }
    }
    expect(cases).toBe(REFUSED.length * variants("/v1/files").length);
  });

  it("refuses the spellings of an allowed endpoint that a server could read as another path", () => {
    // One escaped letter decodes once to the endpoint itself: forwarded, as the plain path.
    const escapedLetter = "/v1/chat/%63ompletions";
    expect(checkProxyPath("openai", "POST", escapedLetter).path).toBe("/v1/chat/completions");
    for (const variant of variants("/v1/chat/completions")) {
      if (variant === escapedLetter) continue;
      expect(refused("openai", "POST", variant), JSON.stringify(variant)).toBe(true);
    }
  });
});

// The normaliser on its own: its contract holds for any allow-list entry, however loose a future one is.
describe("normaliseProxyPath", () => {
  it("decodes once and keeps the path otherwise as written", () => {
    expect(normaliseProxyPath("/v1/chat/completions")).toBe("/v1/chat/completions");
    expect(normaliseProxyPath("/v1/chat/%63ompletions")).toBe("/v1/chat/completions");
    expect(normaliseProxyPath("/v1/models/a b")).toBe("/v1/models/a b");
    expect(normaliseProxyPath("/")).toBeUndefined();
  });

  it("refuses every spelling with another reading", () => {
    for (const raw of [
      "v1/chat/completions",
      "/v1/chat#x",
      "/v1/chat;x=1",
      "/v1\\chat",
      "/v1%2fchat",
      "/v1%5Cchat",
      "/v1/chat%23x",
      "/v1/chat%3bx",
      "/v1/chat%3Fx",
      "/v1/chat%2541",
      "/v1/chat%zz",
      "/v1/chat%e0%a4%a",
      "/v1//chat",
      "/v1/./chat",
      "/v1/../chat",
      "/v1/chat/",
      "/v1/%2e/chat",
      "/v1/%2E%2E/chat",
      "/v1/chat%00",
      "/v1/chat%1f",
      "/v1/chat%7f",
      "/v1/chat\u0001",
    ])
      expect(normaliseProxyPath(raw), JSON.stringify(raw)).toBeUndefined();
  });

  it("accepts the characters either side of the control range", () => {
    expect(normaliseProxyPath("/v1/a%20b")).toBe("/v1/a b");
    expect(normaliseProxyPath("/v1/a%7eb")).toBe("/v1/a~b");
  });
});

describe("checkProxyPath's refusal message", () => {
  it("names the method and a printable, bounded path", () => {
    const long = `/v1/${"x".repeat(300)}`;
    try {
      checkProxyPath("openai", "POST", `${long}\u0001`);
      throw new Error("let through");
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      const message = (error as GatewayError).message;
      expect(message.startsWith("the provider proxy does not forward POST /v1/xxx")).toBe(true);
      expect(message.endsWith("…")).toBe(true);
      expect(message.length).toBeLessThan(260);
    }
    try {
      checkProxyPath("openai", "GET", "/v1/fi\u0001les");
    } catch (error) {
      expect((error as GatewayError).message).toBe("the provider proxy does not forward GET /v1/fi?les");
    }
  });
});
