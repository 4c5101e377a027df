import { describe, expect, it } from "vitest";
import { citedTextBlocks } from "./anthropic/cited-text.js";
import { groundingMetadataOf } from "./gemini/grounding-render.js";
import { urlCitation } from "./url-citation.js";

// The chat surface's url_citation annotations rendered on the Anthropic and Gemini surfaces.
const text = "Café news: [a](https://a.example/) and [b](https://b.example/).";
const a = urlCitation("https://a.example/", "A", 11, 34);
const b = urlCitation("https://b.example/", "B", 39, 62);
const overlapping = urlCitation("https://c.example/", "C", 20, 40);

describe("url_citation annotations as Anthropic text-block citations", () => {
  it("cuts the text at each cited span; the span's block cites it; an overlapping one joins the earlier block", () => {
    const blocks = citedTextBlocks(text, [b, a, overlapping, { type: "file", file: {} }]);
    expect(blocks.map((block) => block.text).join("")).toBe(text);
    expect(blocks).toEqual([
      { type: "text", text: "Café news: " },
      {
        type: "text",
        text: "[a](https://a.example/)",
        citations: [
          {
            type: "web_search_result_location",
            url: "https://a.example/",
            title: "A",
            cited_text: text.slice(11, 34),
            encrypted_index: "",
          },
          {
            type: "web_search_result_location",
            url: "https://c.example/",
            title: "C",
            cited_text: text.slice(20, 40),
            encrypted_index: "",
          },
        ],
      },
      { type: "text", text: " and " },
      expect.objectContaining({ text: "[b](https://b.example/)" }),
      { type: "text", text: "." },
    ]);
  });

  it("leaves the text whole without citations, or with spans outside it", () => {
    expect(citedTextBlocks(text, undefined)).toEqual([{ type: "text", text }]);
    expect(citedTextBlocks("short", [a])).toEqual([{ type: "text", text: "short" }]);
  });
});

describe("url_citation annotations as Gemini groundingMetadata", () => {
  it("lists each URL once and each span as a support in UTF-8 bytes", () => {
    const grounding = groundingMetadataOf(text, [a, b, urlCitation("https://a.example/", "A", 39, 62)]);
    expect(grounding).toEqual({
      groundingChunks: [
        { web: { uri: "https://a.example/", title: "A" } },
        { web: { uri: "https://b.example/", title: "B" } },
      ],
      groundingSupports: [
        {
          segment: { startIndex: 12, endIndex: 35, text: "[a](https://a.example/)" },
          groundingChunkIndices: [0],
        },
        {
          segment: { startIndex: 40, endIndex: 63, text: "[b](https://b.example/)" },
          groundingChunkIndices: [1, 0],
        },
      ],
    });
    expect(groundingMetadataOf(text, [])).toBeUndefined();
  });
});
