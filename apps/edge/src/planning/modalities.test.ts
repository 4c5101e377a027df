import { listPrice } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";
import { requestedModalities } from "./modalities.js";
import { planRoute } from "./plan.js";

const textOnly = testModel("acme/text", [testEndpoint("openai")]);
const seeing = testModel("acme/vision", [
  testEndpoint("anthropic", { pricing: listPrice({ prompt: "1", completion: "2", image: "0.001" }) }),
]);
const snapshot = testSnapshot([textOnly, seeing]);

const ask = (content: unknown) =>
  parseChatRequest({ model: "acme/text", messages: [{ role: "user", content }] });
const plan = (modalities: readonly string[]) =>
  planRoute({
    snapshot,
    kind: "chat",
    model: "acme/text",
    fallbacks: ["acme/vision"],
    preferences: undefined,
    requestedParameters: [],
    allowedModels: undefined,
    allowedProviders: undefined,
    availability: () => ({ usable: true }),
    modalities,
  }).attempts.map((attempt) => attempt.model.id);

describe("the planner prefers models the catalogue lists as taking the request's media", () => {
  it("reads an image part (data: or URL) as the image modality; PDFs and text need none", () => {
    const image = { type: "image_url", image_url: { url: "https://x.test/a.png" } };
    expect(requestedModalities(ask([{ type: "text", text: "x" }, image]))).toEqual(["image"]);
    expect(requestedModalities(ask("plain"))).toEqual([]);
    expect(
      requestedModalities(ask([{ type: "file", file: { file_data: "data:application/pdf;base64,JVBE" } }])),
    ).toEqual([]);
  });

  it("puts a model that takes images first for an image request, the others after; text keeps the order", () => {
    expect(plan(["image"])).toEqual(["acme/vision", "acme/text"]);
    expect(plan([])).toEqual(["acme/text", "acme/vision"]);
  });
});
