import { describe, expect, it } from "vitest";
import { type ChatRequest, parseChatRequest } from "../canonical/chat-request.js";
import { networkFailure } from "../providers/failure.js";
import { ProviderRegistry } from "../providers/registry.js";
import type { ProviderAdapter } from "../providers/types.js";
import { chatAvailability } from "./availability.js";
import { translatableAvailability } from "./translatable.js";

// An unconfigured provider counts as the operator's reason (a 503 when nothing is left) only if the
// request could have been sent to it; a request no format could carry is the caller's 400 (plan.ts).

const openai: ProviderAdapter = {
  id: "openai",
  apiFormat: "openai",
  isDemo: false,
  unsupported: undefined,
  close: async () => {},
  chat: { complete: async () => ({ ok: false, failure: networkFailure("protocol", "never called") }) },
};

const registry = new ProviderRegistry([openai]);

const availability = (request: ChatRequest) =>
  translatableAvailability(chatAvailability(registry), registry, new Map(), request);

const withParts = (...parts: unknown[]): ChatRequest =>
  parseChatRequest({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: parts }] });

describe("translatable availability of providers without credentials here", () => {
  it("names the part when the request could not be sent to the unconfigured provider's format either", () => {
    const malformed = withParts({ type: "text", text: "x" }, { type: "file", file: 5 });
    const configured = availability(malformed)("openai");
    const azure = availability(malformed)("azure");
    expect(configured).toMatchObject({ usable: false, code: "untranslatable_request" });
    expect(azure).toEqual(configured);
  });

  it("keeps 'not configured' when the request would go to that provider's format", () => {
    const fine = withParts({ type: "text", text: "x" });
    expect(availability(fine)("openai")).toEqual({ usable: true });
    expect(availability(fine)("azure")).toMatchObject({ usable: false, code: "provider_not_configured" });
  });

  it("keeps 'not configured' where the catalogue cannot say the format (Vertex: Claude or Gemini)", () => {
    const malformed = withParts({ type: "file", file: 5 });
    expect(availability(malformed)("google-vertex")).toMatchObject({ code: "provider_not_configured" });
  });
});
