import { listPrice } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";
import { type NeededModality, requestedModalities } from "./modalities.js";
import { planRoute } from "./plan.js";

const textOnly = testModel("acme/text", [testEndpoint("openai", { inputModalities: ["text"] })]);
const seeing = testModel("acme/vision", [
  testEndpoint("anthropic", { pricing: listPrice({ prompt: "1", completion: "2", image: "0.001" }) }),
]);
const listening = testModel("acme/mixed", [
  testEndpoint("openai", { inputModalities: ["text", "image"] }),
  testEndpoint("google", { inputModalities: ["text", "image", "file", "audio"] }),
]);
const snapshot = testSnapshot([textOnly, seeing, listening]);

const ask = (content: unknown) =>
  parseChatRequest({ model: "acme/text", messages: [{ role: "user", content }] });
const image = { type: "image_url", image_url: { url: "https://x.test/a.png" } };
const audio = { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } };
const pdf = { type: "file", file: { file_data: "data:application/pdf;base64,JVBE" } };

const planOf = (model: string, fallbacks: string[], modalities: readonly NeededModality[]) =>
  planRoute({
    snapshot,
    kind: "chat",
    model,
    fallbacks,
    preferences: undefined,
    requestedParameters: [],
    allowedModels: undefined,
    allowedProviders: undefined,
    availability: () => ({ usable: true }),
    modalities,
  }).attempts.map((attempt) => `${attempt.model.id}@${attempt.endpoint.providerId}`);

const needs = (...parts: unknown[]) => requestedModalities(ask([{ type: "text", text: "x" }, ...parts]));

describe("the planner prefers endpoints the catalogue lists as taking the request's media", () => {
  it("reads image, document and audio parts as modalities, each with the first part needing it", () => {
    expect(needs(image, pdf, audio, image)).toEqual([
      { modality: "image", path: "messages[0].content[1]", part: "messages[0].content[1] (image URL)" },
      {
        modality: "file",
        path: "messages[0].content[2]",
        part: "messages[0].content[2] (file application/pdf)",
      },
      { modality: "audio", path: "messages[0].content[3]", part: "messages[0].content[3] (input_audio wav)" },
    ]);
    expect(requestedModalities(ask("plain"))).toEqual([]);
  });

  it("puts the endpoints that take the media first, the others after; text keeps the order", () => {
    expect(planOf("acme/text", ["acme/vision"], needs(image))).toEqual([
      "acme/vision@anthropic",
      "acme/text@openai",
    ]);
    expect(planOf("acme/text", ["acme/vision"], [])).toEqual(["acme/text@openai", "acme/vision@anthropic"]);
    // Per endpoint, not per model: the model's audio endpoint goes first.
    expect(planOf("acme/mixed", [], needs(audio))).toEqual(["acme/mixed@google", "acme/mixed@openai"]);
  });

  it("refuses before admission, naming the part, when no endpoint planned lists the modality", () => {
    let refused: unknown;
    try {
      planOf("acme/text", [], needs(image, audio));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).status).toBe(400);
    expect((refused as GatewayError).message).toBe(
      "messages[0].content[1] (image URL) cannot be sent to acme/text: the catalogue lists no endpoint of it that reads image input",
    );
    expect((refused as GatewayError).metadata).toEqual({
      field: "messages[0].content[1]",
      modality: "image",
    });
    // A fallback that reads it saves the request; an endpoint that lists nothing is not known not to.
    expect(planOf("acme/text", ["acme/mixed"], needs(audio))[0]).toBe("acme/mixed@google");
    expect(planOf("acme/vision", [], needs(audio))).toEqual(["acme/vision@anthropic"]);
  });
});
