import { GetSnapshotResponse } from "@gw/proto/catalog/v1/catalog";
import { describe, expect, it } from "vitest";
import {
  endpointInputModalities,
  findModel,
  fromCatalogSnapshot,
  indexCatalog,
  listPrice,
  modelInputModalities,
  openRouterModel,
  toCatalogSnapshot,
} from "./index.js";

const price = listPrice({ prompt: "1" });

describe("input modalities", () => {
  it("come from LiteLLM's flags: vision, PDF input and an audio price", () => {
    // gpt-4o-audio-preview: supports_audio_input and input_cost_per_audio_token, no supports_vision.
    expect(findModel("openai/gpt-4o-audio-preview")?.endpoints[0]?.inputModalities).toEqual([
      "text",
      "audio",
    ]);
    // claude-3-7-sonnet: supports_vision and supports_pdf_input.
    expect(findModel("anthropic/claude-3-7-sonnet")?.endpoints[0]?.inputModalities).toEqual([
      "text",
      "image",
      "file",
    ]);
    expect(findModel("demo/echo")?.endpoints[0]?.inputModalities).toEqual(["text"]);
    // The open-weight hosts' sample: per host, where the full file flags it (Groq's Llama 4 Maverick).
    const maverick = findModel("meta-llama/llama-4-maverick")?.endpoints ?? [];
    expect(maverick.find((e) => e.providerId === "groq")?.inputModalities).toEqual(["text", "image"]);
    expect(findModel("microsoft/phi-4")?.endpoints[0]?.inputModalities).toEqual(["text"]);
  });

  it("are published in OpenRouter's architecture, every endpoint's in its order", () => {
    const gemini = findModel("google/gemini-2.5-flash");
    if (!gemini) throw new Error("catalogue lacks gemini-2.5-flash");
    const snapshot = toCatalogSnapshot().models.find((m) => m.id === gemini.id);
    if (!snapshot) throw new Error("snapshot lacks gemini-2.5-flash");
    expect(openRouterModel(snapshot, snapshot.endpoints).architecture).toMatchObject({
      modality: "text+image+file+audio->text",
      input_modalities: ["text", "image", "file", "audio"],
    });
    const textOnly = {
      ...snapshot.endpoints[0],
      inputModalities: ["text"],
    } as (typeof snapshot.endpoints)[0];
    const audio = { ...textOnly, inputModalities: ["audio", "text"] };
    expect(modelInputModalities([textOnly, audio])).toEqual(["text", "audio"]);
  });

  it("fall back to the image price on a snapshot from a keys app that sends none", () => {
    expect(endpointInputModalities({ inputModalities: [], pricing: { ...price, imagePico: 1n } })).toEqual([
      "text",
      "image",
    ]);
    expect(endpointInputModalities({ inputModalities: [], pricing: price })).toEqual(["text"]);
    expect(endpointInputModalities({ inputModalities: ["file", "video"], pricing: price })).toEqual([
      "text",
      "file",
    ]);
  });

  it("survive the snapshot's protobuf encoding", () => {
    const decoded = GetSnapshotResponse.decode(GetSnapshotResponse.encode(toCatalogSnapshot()).finish());
    const rebuilt = indexCatalog(fromCatalogSnapshot(decoded));
    expect(rebuilt.findEndpoint("google/gemini-2.5-pro", "google")?.inputModalities).toEqual([
      "text",
      "image",
      "file",
      "audio",
    ]);
  });

  it("publish the audio price in the model object's pricing where audio is priced apart", () => {
    const models = toCatalogSnapshot().models;
    const flash = models.find((m) => m.id === "google/gemini-2.5-flash");
    const mini = models.find((m) => m.id === "openai/gpt-4o-mini");
    if (!flash || !mini) throw new Error("catalogue lacks the models");
    expect(openRouterModel(flash, flash.endpoints).pricing.audio).toBe("0.000001");
    expect(openRouterModel(mini, mini.endpoints).pricing).not.toHaveProperty("audio");
  });
});
