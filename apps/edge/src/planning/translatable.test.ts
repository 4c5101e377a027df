import { describe, expect, it } from "vitest";
import { type ChatRequest, parseChatRequest } from "../canonical/chat-request.js";
import { networkFailure } from "../providers/failure.js";
import { withNativeRequest } from "../providers/native.js";
import { ProviderRegistry } from "../providers/registry.js";
import type { ApiFormat, ProviderAdapter } from "../providers/types.js";
import { chatAvailability } from "./availability.js";
import type { AccountProviders } from "./byok-credentials.js";
import type { Availability } from "./filters.js";
import { translatableAvailability } from "./translatable.js";

// An unconfigured provider counts as the operator's reason (a 503 when nothing is left) only if the
// request could have been sent to it; a request no format could carry is the caller's 400 (plan.ts).

const adapterOf = (id: string, apiFormat: ApiFormat): ProviderAdapter => ({
  id,
  apiFormat,
  isDemo: false,
  unsupported: undefined,
  close: async () => {},
  chat: { complete: async () => ({ ok: false, failure: networkFailure("protocol", "never called") }) },
});

const openai = adapterOf("openai", "openai");

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

const usable = (): Availability => ({ usable: true });
const text = { type: "text", text: "x" };
const audio = { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } };
const imageUrl = { type: "image_url", image_url: { url: "https://example.com/cat.png" } };

describe("translatable availability of configured providers", () => {
  const three = new ProviderRegistry([
    openai,
    adapterOf("anthropic", "anthropic"),
    adapterOf("google-ai-studio", "gemini"),
  ]);
  const over = (request: ChatRequest, canFetch?: boolean) =>
    translatableAvailability(chatAvailability(three), three, new Map(), request, canFetch);

  it("leaves out the format that cannot take a media part, naming the part, and keeps the others", () => {
    const check = over(withParts(text, audio));
    expect(check("openai")).toEqual({ usable: true });
    const anthropic = check("anthropic");
    expect(anthropic).toMatchObject({ usable: false, code: "untranslatable_request" });
    expect(anthropic.usable === false && anthropic.reason).toContain("audio");
  });

  it("a URL the format needs as bytes is refused unless this gateway fetches media (off by default)", () => {
    const request = withParts(text, imageUrl);
    expect(over(request)("google-ai-studio")).toMatchObject({ code: "untranslatable_request" });
    expect(over(request, false)("google-ai-studio")).toMatchObject({ code: "untranslatable_request" });
    expect(over(request, true)("google-ai-studio")).toEqual({ usable: true });
    // OpenAI fetches an image URL itself.
    expect(over(request)("openai")).toEqual({ usable: true });
  });

  it("a field only another format has stays off this one (never dropped in silence)", () => {
    const request = parseChatRequest({
      model: "google/gemini-2.5-flash",
      messages: [{ role: "user", content: "x" }],
      safety_settings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
    });
    const check = over(request);
    expect(check("google-ai-studio")).toEqual({ usable: true });
    const openaiVerdict = check("openai");
    expect(openaiVerdict).toMatchObject({ usable: false, code: "untranslatable_request" });
    expect(openaiVerdict.usable === false && openaiVerdict.reason).toContain("safetySettings");
  });

  it("a native body's untranslated fields go to its own format only, named in the exclusion", () => {
    const request = withNativeRequest(withParts(text), {
      format: "anthropic",
      body: { context_management: {} },
      headers: {},
      untranslated: ["context_management"],
    });
    const check = over(request);
    expect(check("anthropic")).toEqual({ usable: true });
    const openaiVerdict = check("openai");
    expect(openaiVerdict).toMatchObject({ usable: false, code: "untranslatable_request" });
    expect(openaiVerdict.usable === false && openaiVerdict.reason).toContain(
      "context_management: only anthropic's own API takes it",
    );
  });

  it("a same-format native body is sent as written: its provider judges its media, not the gateway", () => {
    const request = withNativeRequest(withParts(text, audio), {
      format: "anthropic",
      body: {},
      headers: {},
      untranslated: [],
    });
    expect(over(request)("anthropic")).toEqual({ usable: true });
    expect(over(withParts(text, audio))("anthropic")).toMatchObject({ code: "untranslatable_request" });
  });

  it("a provider excluded for another reason keeps that reason", () => {
    const ignored = (): Availability => ({
      usable: false,
      code: "excluded_by_request",
      reason: "ignored by the request",
    });
    const check = translatableAvailability(ignored, three, new Map(), withParts(text, audio));
    expect(check("anthropic")).toEqual(ignored());
  });

  it("judges a provider the account brings its own key for by that key's adapter", () => {
    const byok: AccountProviders = new Map([
      ["anthropic", { credentialId: "cred-1", adapter: adapterOf("anthropic", "anthropic") }],
    ]);
    // Only the account's key serves Anthropic here: the gateway has none of its own.
    const check = translatableAvailability(usable, registry, byok, withParts(text, audio));
    expect(check("anthropic")).toMatchObject({ usable: false, code: "untranslatable_request" });
    expect(check("openai")).toEqual({ usable: true });
  });
});

describe("translatable availability of unconfigured providers, by their catalogued format", () => {
  it("keeps 'not configured' for a provider id neither configured nor catalogued", () => {
    const missing = (): Availability => ({
      usable: false,
      code: "provider_not_configured",
      reason: "no credentials",
    });
    const check = translatableAvailability(missing, registry, new Map(), withParts(text, audio));
    expect(check("no-such-provider")).toEqual(missing());
  });

  it("judges an unconfigured provider by its catalogued format (Anthropic takes no audio)", () => {
    const check = availability(withParts(text, audio));
    expect(check("anthropic")).toMatchObject({ usable: false, code: "untranslatable_request" });
    expect(availability(withParts(text))("anthropic")).toMatchObject({ code: "provider_not_configured" });
  });
});
