import { listPrice } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import { usageFromGemini } from "../translate/gemini/to-openai.js";
import { renderUsage } from "../translate/openai/usage.js";
import { computeCost } from "./cost.js";
import { normaliseUsage, type TokenUsage } from "./tokens.js";
import { usageFromWire, usageToWire } from "./wire.js";

const usage = (parts: Partial<TokenUsage>): TokenUsage => ({
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  ...parts,
});

// Gemini 2.5 Flash: $0.30 / M text, image and video in, $1.00 / M audio in, $2.50 / M out.
const flash = listPrice({ prompt: "0.30", completion: "2.50", audio: "1.00" });

describe("media in the cost", () => {
  it("prices the prompt's audio tokens at the audio price and the rest at the prompt price", () => {
    const cost = computeCost(flash, usage({ promptTokens: 1_000, completionTokens: 10, audioTokens: 800 }));
    expect(cost.audioPico).toBe(800n * 1_000_000n);
    expect(cost.promptPico).toBe(200n * 300_000n + 800n * 1_000_000n);
    expect(cost.totalPico).toBe(cost.promptPico + 10n * 2_500_000n);
    // No image was sent: no image part of the cost.
    expect(cost.imagePico).toBeUndefined();
  });

  it("prices audio at the prompt price where the catalogue lists no audio price", () => {
    const plain = listPrice({ prompt: "2.50", completion: "10" });
    const cost = computeCost(plain, usage({ promptTokens: 100, audioTokens: 60 }));
    expect(cost.promptPico).toBe(100n * 2_500_000n);
    expect(cost.audioPico).toBe(60n * 2_500_000n);
  });

  it("adds the per-image price and keeps image and document tokens at the prompt price", () => {
    const perImage = listPrice({ prompt: "1", completion: "1", image: "0.001" });
    const cost = computeCost(
      perImage,
      usage({ promptTokens: 600, imageTokens: 258, documentTokens: 300 }),
      2,
    );
    expect(cost.imagePico).toBe(2n * 1_000_000_000n);
    expect(cost.promptPico).toBe(600n * 1_000_000n + 2n * 1_000_000_000n);
    expect(cost.audioPico).toBeUndefined();
  });

  it("prices the audio the model speaks at the audio output price, else at the completion price", () => {
    // GPT-4o Audio: $10 / M text out, $80 / M audio out; 40 of 100 completion tokens spoken, 10 reasoning.
    const audioOut = listPrice({ prompt: "2.50", completion: "10", reasoning: "20", audioOutput: "80" });
    const spoken = usage({ completionTokens: 100, reasoningTokens: 10, completionAudioTokens: 40 });
    const cost = computeCost(audioOut, spoken);
    expect(cost.completionPico).toBe(50n * 10_000_000n + 10n * 20_000_000n + 40n * 80_000_000n);
    expect(cost.audioPico).toBe(40n * 80_000_000n);
    expect(cost.totalPico).toBe(cost.completionPico);
    const plain = computeCost(listPrice({ prompt: "2.50", completion: "10" }), spoken);
    expect(plain.completionPico).toBe(100n * 10_000_000n);
    expect(plain.audioPico).toBe(40n * 10_000_000n);
    // Both ways at once: the audio part is the prompt's audio plus the spoken audio.
    const both = computeCost(audioOut, { ...spoken, promptTokens: 10, audioTokens: 10 });
    expect(both.audioPico).toBe(10n * 2_500_000n + 40n * 80_000_000n);
  });

  it("never prices audio the provider also counted as cached, nor more than the prompt", () => {
    const clamped = normaliseUsage(usage({ promptTokens: 100, cachedTokens: 40, audioTokens: 90 }));
    expect(clamped.audioTokens).toBe(60);
  });
});

describe("media counts as each provider reports them", () => {
  it("OpenAI: prompt_tokens_details.audio_tokens and completion_tokens_details.audio_tokens", () => {
    const read = usageFromWire({
      prompt_tokens: 120,
      completion_tokens: 30,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 20 },
    });
    expect(read).toMatchObject({ audioTokens: 100, completionAudioTokens: 20 });
    // And back through the canonical wire a translated answer takes.
    expect(usageFromWire(usageToWire(read as TokenUsage))).toEqual(read);
  });

  it("Gemini: promptTokensDetails by modality", () => {
    const read = usageFromGemini({
      promptTokenCount: 900,
      candidatesTokenCount: 5,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: 10 },
        { modality: "IMAGE", tokenCount: 258 },
        { modality: "AUDIO", tokenCount: 320 },
        { modality: "DOCUMENT", tokenCount: 312 },
      ],
    });
    expect(read).toMatchObject({ audioTokens: 320, imageTokens: 258, documentTokens: 312 });
  });

  it("shows them in usage and the audio and image costs in cost_details", () => {
    const counted = usage({ promptTokens: 1_000, completionTokens: 10, audioTokens: 800, imageTokens: 100 });
    const cost = computeCost({ ...flash, imagePico: 1_000_000_000n }, counted, 1);
    const body = renderUsage({
      usage: counted,
      cost,
      chargedPico: cost.totalPico,
      estimated: false,
      isByok: false,
    });
    expect(body.prompt_tokens_details).toEqual({
      cached_tokens: 0,
      cache_write_tokens: 0,
      audio_tokens: 800,
      image_tokens: 100,
    });
    expect(body.cost_details.upstream_inference_audio_cost).toBe(0.0008);
    expect(body.cost_details.upstream_inference_image_cost).toBe(0.001);
  });
});
