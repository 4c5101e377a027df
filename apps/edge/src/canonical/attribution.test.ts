import { describe, expect, it } from "vitest";
import { attributionOf, externalUserOf } from "./attribution.js";

describe("app attribution headers", () => {
  it("keeps a referer's origin and path and the title, from X-Title or @openrouter/sdk's X-OpenRouter-Title", () => {
    expect(
      attributionOf({ "http-referer": "https://app.example/chat?token=s3cret#x", "x-title": " My App " }),
    ).toEqual({ httpReferer: "https://app.example/chat", appTitle: "My App", userAgent: "" });
    expect(attributionOf({ "x-openrouter-title": "SDK App" })).toEqual({
      httpReferer: "",
      appTitle: "SDK App",
      userAgent: "",
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
      userAgent: "",
    });
    expect(attributionOf({ "user-agent": `x${"a".repeat(512)}` })).toBeUndefined();
    expect(attributionOf({ "user-agent": "evil\r\nX-Injected: 1" })).toBeUndefined();
  });

  it("keeps the User-Agent, which OpenRouter's generation record shows as user_agent", () => {
    expect(attributionOf({ "user-agent": "OpenAI/JS 6.1.0" })).toEqual({
      httpReferer: "",
      appTitle: "",
      userAgent: "OpenAI/JS 6.1.0",
    });
  });

  it("takes the request's user as external_user, dropping one that is not a short printable string", () => {
    expect(externalUserOf(" user-42 ")).toBe("user-42");
    expect(externalUserOf(42)).toBeUndefined();
    expect(externalUserOf("")).toBeUndefined();
    expect(externalUserOf("a".repeat(129))).toBeUndefined();
    expect(externalUserOf("tab\tuser")).toBeUndefined();
  });
});
