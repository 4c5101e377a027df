import { describe, expect, it } from "vitest";
import { attributionOf } from "./attribution.js";

describe("app attribution headers", () => {
  it("keeps a referer's origin and path and the title, from X-Title or @openrouter/sdk's X-OpenRouter-Title", () => {
    expect(
      attributionOf({ "http-referer": "https://app.example/chat?token=s3cret#x", "x-title": " My App " }),
    ).toEqual({ httpReferer: "https://app.example/chat", appTitle: "My App" });
    expect(attributionOf({ "x-openrouter-title": "SDK App" })).toEqual({
      httpReferer: "",
      appTitle: "SDK App",
    });
    expect(attributionOf({})).toBeUndefined();
    expect(attributionOf(undefined)).toBeUndefined();
  });

  it("drops what is not valid instead of failing the request", () => {
    const refused = [
      "app.example",
      "javascript:alert(1)",
      "ftp://app.example/",
      "https://user:pass@app.example/",
      `https://app.example/${"a".repeat(600)}`,
      "https://app.example/\u0007",
    ];
    for (const referer of refused)
      expect(attributionOf({ "http-referer": referer }), referer).toBeUndefined();
    expect(attributionOf({ "x-title": "a".repeat(129) })).toBeUndefined();
    expect(attributionOf({ "x-title": "bell\u0007" })).toBeUndefined();
    expect(attributionOf({ "x-title": "ok", "http-referer": "nope" })).toEqual({
      httpReferer: "",
      appTitle: "ok",
    });
  });
});
