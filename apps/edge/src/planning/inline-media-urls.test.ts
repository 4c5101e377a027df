import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { type MediaFetcher, MediaFetchRefused, refuseMediaFetch } from "../media/fetcher.js";
import { GuardedFetchRefused } from "../media/guarded-fetch.js";
import { nativeRequestOf, withNativeRequest } from "../providers/native.js";
import { inlineMediaUrls, MAX_FETCHED_MEDIA, MediaPartRefused } from "./inline-media-urls.js";

const request = parseChatRequest({
  model: "m",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "compare" },
        { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
        { type: "file", file: { filename: "a.pdf", file_data: "https://example.com/a.pdf" } },
      ],
    },
  ],
});

const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff, 0x00]);

describe("inlineMediaUrls", () => {
  it(`fetches at most ${MAX_FETCHED_MEDIA} URLs for one request and refuses the next by name, starting no fetch for it`, async () => {
    const images = (count: number) =>
      parseChatRequest({
        model: "m",
        messages: [
          {
            role: "user",
            content: Array.from({ length: count }, (_, index) => ({
              type: "image_url",
              image_url: { url: `https://example.com/${index}.png` },
            })),
          },
        ],
      });
    const asked: string[] = [];
    const fetcher: MediaFetcher = async (url) => {
      asked.push(url);
      return { bytes, contentType: "image/png" };
    };
    await inlineMediaUrls(images(MAX_FETCHED_MEDIA), "gemini", fetcher);
    expect(asked).toHaveLength(MAX_FETCHED_MEDIA);
    asked.length = 0;
    const over = inlineMediaUrls(images(MAX_FETCHED_MEDIA + 1), "gemini", fetcher);
    await expect(over).rejects.toThrow(MediaPartRefused);
    await expect(over).rejects.toThrow(/messages\[0\]\.content\[20\].*at most 20 media URLs/);
    expect(asked).not.toContain(`https://example.com/${MAX_FETCHED_MEDIA}.png`);
  });

  it("fetches the URLs a format needs as bytes, with the types it takes, and carries them as data: URLs", async () => {
    const asked: [string, readonly string[]][] = [];
    const fetcher: MediaFetcher = async (url, types) => {
      asked.push([url, types]);
      return { bytes, contentType: url.endsWith(".pdf") ? "application/pdf" : "image/png" };
    };
    const inlined = await inlineMediaUrls(request, "gemini", fetcher);
    const b64 = Buffer.from(bytes).toString("base64");
    expect(inlined.messages[0]?.content).toEqual([
      { type: "text", text: "compare" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${b64}`, detail: "low" } },
      { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${b64}` } },
    ]);
    expect(asked.map(([url]) => url)).toEqual(["https://example.com/cat.png", "https://example.com/a.pdf"]);
    expect(asked[0]?.[1]).toContain("image/png");
    expect(asked[1]?.[1]).toEqual(["application/pdf", "text/plain"]);
  });

  it("leaves URLs the target fetches itself, and a same-format native body, untouched", async () => {
    const never: MediaFetcher = async () => {
      throw new Error("must not fetch");
    };
    expect(await inlineMediaUrls(request, "anthropic", never)).toBe(request);
    const native = withNativeRequest(parseChatRequest({ ...request }), {
      format: "gemini",
      body: {},
      headers: {},
    });
    expect(await inlineMediaUrls(native, "gemini", never)).toBe(native);
    // OpenAI takes the image URL but not a file URL: only the PDF is fetched, the native mark is kept.
    const fetched = await inlineMediaUrls(native, "openai", async () => ({
      bytes,
      contentType: "application/pdf",
    }));
    expect(
      ((fetched.messages[0]?.content ?? []) as { image_url?: { url: string } }[])[1]?.image_url?.url,
    ).toBe("https://example.com/cat.png");
    expect(nativeRequestOf(fetched)?.format).toBe("gemini");
  });

  it("names the part and the reason when the fetch is refused", async () => {
    await expect(inlineMediaUrls(request, "bedrock", refuseMediaFetch)).rejects.toThrow(MediaPartRefused);
    await expect(inlineMediaUrls(request, "bedrock", refuseMediaFetch)).rejects.toThrow(
      /messages\[0\]\.content\[1\] \(image URL\) could not be fetched: fetching media URLs is not enabled/,
    );
    const privateAddress: MediaFetcher = async () => {
      throw new MediaFetchRefused("the host resolves to a private address");
    };
    await expect(inlineMediaUrls(request, "openai", privateAddress)).rejects.toThrow(
      /content\[2\] \(file URL\) could not be fetched: the host resolves to a private address/,
    );
    const guarded: MediaFetcher = async () => {
      throw new GuardedFetchRefused("http://10.0.0.1 resolves to a private address");
    };
    await expect(inlineMediaUrls(request, "openai", guarded)).rejects.toThrow(
      /could not be fetched: http:\/\/10\.0\.0\.1 resolves to a private address/,
    );
  });
});
