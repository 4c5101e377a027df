import { describe, expect, it } from "vitest";
import { type ChatRequest, parseChatRequest } from "../canonical/chat-request.js";
import { CatalogHolder } from "../catalog/catalog-holder.js";
import { type MediaFetcher, MediaFetchRefused } from "../media/fetcher.js";
import { networkFailure } from "../providers/failure.js";
import { ProviderRegistry } from "../providers/registry.js";
import type { ChatCall, ChatResult, ProviderAdapter } from "../providers/types.js";
import { testEndpoint, testModel, testSnapshotResponse } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { EndpointHealth } from "./health.js";
import { Planner } from "./planner.js";

// The planner's adapters fetch the media URLs a format needs as bytes before each attempt (issue 32).

const seen: ChatCall[] = [];
const gemini: ProviderAdapter = {
  id: "google",
  apiFormat: "gemini",
  isDemo: false,
  unsupported: undefined,
  close: async () => {},
  chat: {
    complete: async (call): Promise<ChatResult> => {
      seen.push(call);
      return { ok: false, failure: networkFailure("protocol", "the stand-in never answers") };
    },
  },
};

async function planner(mediaFetcher?: MediaFetcher) {
  const snapshot = testSnapshotResponse([testModel("google/gemini", [testEndpoint("google")])]);
  const catalog = new CatalogHolder(async () => snapshot);
  await catalog.refresh();
  return new Planner({
    catalog,
    providers: new ProviderRegistry([gemini]),
    byok: undefined,
    health: new EndpointHealth({ get: () => undefined }, () => 0),
    random: () => 0,
    mediaFetcher,
  });
}

const withImage = (url: unknown): ChatRequest =>
  parseChatRequest({
    model: "google/gemini",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "x" },
          { type: "image_url", image_url: { url } },
        ],
      },
    ],
  });
const principal = testKey("acct-media").principal;

async function attempt(planned: Planner, request: ChatRequest, sent: ChatRequest = request) {
  const route = await planned.route({ principal, request, kind: "chat" });
  const first = route.attempts[0];
  if (!first) throw new Error("no attempt");
  return route.adapterFor(first)?.chat?.complete({
    request: sent,
    upstreamModel: "gemini",
    stream: false,
    signal: new AbortController().signal,
  });
}

describe("per-attempt media inlining", () => {
  it("hands the adapter the fetched bytes as a data: URL", async () => {
    seen.length = 0;
    const planned = await planner(async () => ({
      bytes: new Uint8Array([1, 2, 3]),
      contentType: "image/png",
    }));
    await attempt(planned, withImage("https://x.test/a.png"));
    expect(
      ((seen[0]?.request.messages[0]?.content ?? []) as { image_url?: { url: string } }[])[1]?.image_url?.url,
    ).toBe("data:image/png;base64,AQID");
  });

  it("turns a refused fetch or a malformed part into the caller's 400, naming the part", async () => {
    const planned = await planner(async () => {
      throw new MediaFetchRefused("private address");
    });
    const refused = await attempt(planned, withImage("https://x.test/a.png"));
    expect(refused).toMatchObject({ ok: false, failure: { status: 400, code: "untranslatable_request" } });
    expect(refused?.ok === false && refused.failure.message).toMatch(
      /content\[1\] \(image URL\).*private address/,
    );
    const malformed = await attempt(planned, withImage("https://x.test/a.png"), withImage(5));
    expect(malformed).toMatchObject({ ok: false, failure: { status: 400, code: "untranslatable_request" } });
  });
});
