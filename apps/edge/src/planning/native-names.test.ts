import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../canonical/chat-request.js";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";
import { nativeModelId, withNativeModels } from "./native-model.js";
import { resolveModel } from "./variants.js";

// Native SDK model names → catalogue ids when the name's author is not the surface's own (the ranked
// search), and the variant suffixes that only reorder endpoints.

const snapshot = testSnapshot([
  testModel("zeta/llama-3", [testEndpoint("together", { upstreamModel: "llama-3-70b-instruct" })]),
  testModel("alpha/llama-3", [testEndpoint("fireworks", { upstreamModel: "accounts/llama-v3" })]),
  testModel("google/gemini-2.5-flash", [testEndpoint("google", { upstreamModel: "gemini-2.5-flash" })]),
  testModel("google/gemini-2.5-flash:free", [testEndpoint("google", { upstreamModel: "gemini-2.5-flash" })]),
]);

describe("nativeModelId, outside the surface's authors", () => {
  it("ranks the surface's authors first, then the rest by id", () => {
    expect(nativeModelId(snapshot, "llama-3", [])).toBe("alpha/llama-3");
    expect(nativeModelId(snapshot, "llama-3", ["anthropic", "zeta"])).toBe("zeta/llama-3");
  });

  it("finds a model by an endpoint's upstream name, keeping a variant suffix", () => {
    expect(nativeModelId(snapshot, "llama-3-70b-instruct", [])).toBe("zeta/llama-3");
    // A name with a slash is taken as a full catalogue id.
    expect(nativeModelId(snapshot, "accounts/llama-v3", [])).toBe("accounts/llama-v3");
    expect(nativeModelId(snapshot, "gemini-2.5-flash:nitro", [])).toBe("google/gemini-2.5-flash:nitro");
    expect(nativeModelId(snapshot, "models/gemini-2.5-flash:free", [])).toBe("google/gemini-2.5-flash:free");
  });

  it("strips only a leading models/ and leaves unknown names alone", () => {
    expect(nativeModelId(snapshot, "xmodels/gemini-2.5-flash", [])).toBe("xmodels/gemini-2.5-flash");
    expect(nativeModelId(snapshot, "nope:free", ["google"])).toBe("nope:free");
  });

  it("maps the request's model and each fallback", () => {
    const chat: ChatRequest = {
      model: "gemini-2.5-flash",
      models: ["llama-3", "nope"],
      messages: [{ role: "user", content: "hi" }],
    };
    expect(withNativeModels(snapshot, chat, ["google"])).toMatchObject({
      model: "google/gemini-2.5-flash",
      models: ["alpha/llama-3", "nope"],
    });
    expect(withNativeModels(snapshot, { ...chat, models: undefined }, ["google"]).models).toBeUndefined();
  });
});

describe("resolveModel variants", () => {
  it(":floor sorts by price and :nitro by throughput; other suffixes and bare colons are unknown", () => {
    expect(resolveModel(snapshot, "google/gemini-2.5-flash:floor")).toMatchObject({ sort: "price" });
    expect(resolveModel(snapshot, "google/gemini-2.5-flash:nitro")).toMatchObject({ sort: "throughput" });
    expect(resolveModel(snapshot, "google/gemini-2.5-flash:free")?.model.id).toBe(
      "google/gemini-2.5-flash:free",
    );
    expect(resolveModel(snapshot, "google/gemini-2.5-flash:beta")).toBeUndefined();
    expect(resolveModel(snapshot, "nope/model:floor")).toBeUndefined();
    expect(resolveModel(snapshot, ":floor")).toBeUndefined();
    expect(resolveModel(snapshot, "google/gemini-2.5-flash")).toEqual({
      model: snapshot.model("google/gemini-2.5-flash"),
      sort: undefined,
    });
  });
});
