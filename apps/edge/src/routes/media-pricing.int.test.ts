import { listPrice } from "@gw/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audioTokenBound } from "../admission/worst-case.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { tinyPdf } from "../test/pdf.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// Media is priced (issue 32): an audio clip and an image through the OpenAI-format fake, a PDF through
// Anthropic's. The fakes report media as their providers do (packages/fake-providers */media.ts): OpenAI
// the audio apart in prompt_tokens_details.audio_tokens (10 a second) and images inside prompt_tokens;
// Anthropic images and PDF pages inside input_tokens (3,100 a page).

const key = testKey("acct-media-pricing");
let edge: EdgeHarness;

// GPT-4o Audio's list prices: $2.50 / M text in, $10 / M out, $40 / M audio in, $80 / M audio out;
// $0.001 an image here.
const AUDIO_MODEL = "openai/gpt-audio-test";
const PDF_MODEL = "anthropic/claude-pdf-test";

beforeAll(async () => {
  edge = await startEdgeHarness({
    keys: [key],
    extraModels: [
      testModel(AUDIO_MODEL, [
        testEndpoint("openai", {
          upstreamModel: "gpt-4o-audio-preview",
          contextLength: 128_000,
          maxCompletionTokens: 1_000,
          pricing: listPrice({
            prompt: "2.50",
            completion: "10",
            audio: "40",
            audioOutput: "80",
            image: "0.001",
          }),
          inputModalities: ["text", "image", "audio"],
        }),
      ]),
      testModel(PDF_MODEL, [
        testEndpoint("anthropic", {
          upstreamModel: "claude-test",
          contextLength: 200_000,
          maxCompletionTokens: 1_000,
          pricing: listPrice({ prompt: "3", completion: "15" }),
          inputModalities: ["text", "image", "file"],
        }),
      ]),
    ],
  });
});

afterAll(async () => {
  await edge?.stop();
});

/** One second of 16 kHz 16-bit mono WAV (32,044 bytes). */
function wavSecond(): string {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + 32_000, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(32_000, 40);
  return Buffer.concat([header, Buffer.alloc(32_000)]).toString("base64");
}

/** A PNG signature and IHDR for 512x512: 85 + 170 (one tile) = 255 tokens on OpenAI. */
function png512(): string {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(512, 8);
  ihdr.writeUInt32BE(512, 12);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]).toString(
    "base64",
  );
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return {
    id: response.headers.get("x-generation-id") ?? "",
    body: (await response.json()) as Record<string, never>,
  };
}

const admitOf = (id: string) => edge.billing.admits.find((admit) => admit.holdId === id);
const settleOf = (id: string) => edge.billing.settles.find((settle) => settle.holdId === id);

describe("media is priced", () => {
  it("spoken output: the completion's audio tokens at the audio output price, in the audio cost and held", async () => {
    const { id, body } = await post("/v1/chat/completions", {
      model: AUDIO_MODEL,
      max_tokens: 50,
      modalities: ["text", "audio"],
      audio: { voice: "alloy", format: "wav" },
      messages: [{ role: "user", content: "Say hello." }],
    });
    const usage = body.usage as unknown as {
      prompt_tokens: number;
      completion_tokens: number;
      completion_tokens_details: { audio_tokens: number };
      cost: number;
      cost_details: Record<string, number>;
    };
    const spoken = usage.completion_tokens_details.audio_tokens;
    expect(spoken).toBeGreaterThan(0);
    // The transcript's tokens at $10 / M, the speech at $80 / M.
    const completionPico =
      BigInt(usage.completion_tokens - spoken) * 10_000_000n + BigInt(spoken) * 80_000_000n;
    const totalPico = BigInt(usage.prompt_tokens) * 2_500_000n + completionPico;
    expect(usage.cost_details).toMatchObject({
      upstream_inference_completions_cost: Number(completionPico) / 1e12,
      upstream_inference_audio_cost: Number(BigInt(spoken) * 80_000_000n) / 1e12,
    });
    expect(usage.cost).toBeCloseTo(Number(totalPico) / 1e12, 15);
    const event = await usageEventFor(edge, id);
    expect(event).toMatchObject({ completionAudioTokens: spoken, costPico: totalPico });
    // Held at the dearest output price: every token of max_tokens could be speech.
    expect(admitOf(id)?.worstCaseCostPico ?? 0n).toBeGreaterThanOrEqual(50n * 80_000_000n);
  });

  it("an audio clip and an image: audio at the audio price, the image at its price, held beforehand", async () => {
    const audio = wavSecond();
    const { id, body } = await post("/v1/chat/completions", {
      model: AUDIO_MODEL,
      max_tokens: 50,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What do you hear and see?" },
            { type: "input_audio", input_audio: { data: audio, format: "wav" } },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png512()}` } },
          ],
        },
      ],
    });
    const usage = body.usage as unknown as {
      prompt_tokens: number;
      completion_tokens: number;
      prompt_tokens_details: { audio_tokens: number };
      cost: number;
      cost_details: Record<string, number>;
    };
    expect(usage.prompt_tokens_details.audio_tokens).toBe(10);
    // The prompt: text at $2.50 / M, 10 audio tokens at $40 / M, plus the image's $0.001.
    const promptPico = BigInt(usage.prompt_tokens - 10) * 2_500_000n + 10n * 40_000_000n + 1_000_000_000n;
    const totalPico = promptPico + BigInt(usage.completion_tokens) * 10_000_000n;
    expect(usage.cost_details).toMatchObject({
      upstream_inference_audio_cost: 0.0004,
      upstream_inference_image_cost: 0.001,
      upstream_inference_prompt_cost: Number(promptPico) / 1e12,
    });
    expect(usage.cost).toBeCloseTo(Number(totalPico) / 1e12, 15);

    // The generation record and the ledger's charge.
    const event = await usageEventFor(edge, id);
    expect(event).toMatchObject({
      audioTokens: 10,
      audioCostPico: 400_000_000n,
      imageCostPico: 1_000_000_000n,
      costPico: totalPico,
      upstreamPromptCostPico: promptPico,
    });
    await expect.poll(() => settleOf(id)?.actualCostPico).toBe(totalPico);

    // The hold covered it, the audio at its byte-size bound at the audio price.
    const held = admitOf(id)?.worstCaseCostPico ?? 0n;
    const audioBytes = Math.ceil((audio.length * 3) / 4);
    expect(held).toBeGreaterThanOrEqual(BigInt(audioTokenBound(audioBytes)) * 40_000_000n + 1_000_000_000n);
    expect(held).toBeGreaterThanOrEqual(totalPico);
  });

  it("a PDF through Anthropic: its pages in input_tokens, billed at the prompt price, held at the context", async () => {
    const pdf = tinyPdf(["Revenue rose 12 percent", "Costs fell"]).toString("base64");
    const { id, body } = await post(
      "/v1/messages",
      {
        model: PDF_MODEL,
        max_tokens: 50,
        messages: [
          {
            role: "user",
            content: [
              { type: "document", source: { type: "base64", media_type: "application/pdf", data: pdf } },
              { type: "text", text: "Summarise this." },
            ],
          },
        ],
      },
      { "anthropic-version": "2023-06-01" },
    );
    const usage = body.usage as unknown as { input_tokens: number; output_tokens: number };
    // Two pages at 3,100 each, inside input_tokens as Anthropic reports them.
    expect(usage.input_tokens).toBeGreaterThan(2 * 3_100);
    const totalPico = BigInt(usage.input_tokens) * 3_000_000n + BigInt(usage.output_tokens) * 15_000_000n;
    const event = await usageEventFor(edge, id);
    expect(event).toMatchObject({ promptTokens: usage.input_tokens, costPico: totalPico });
    await expect.poll(() => settleOf(id)?.actualCostPico).toBe(totalPico);
    const held = admitOf(id)?.worstCaseCostPico ?? 0n;
    // A document is held at the endpoint's whole context at the prompt price, which covers it.
    expect(held).toBeGreaterThanOrEqual(200_000n * 3_000_000n);
    expect(held).toBeGreaterThanOrEqual(totalPico);
  });
});
