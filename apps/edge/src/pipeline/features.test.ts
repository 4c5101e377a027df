import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../canonical/chat-request.js";
import { NO_FEATURES } from "../canonical/plugins.js";
import { withNativeRequest } from "../providers/native.js";
import { pdfPart } from "../test/pdf.js";
import { withFeatures } from "./features.js";

const request = (): ChatRequest => ({
  model: "m",
  messages: [{ role: "user", content: [{ type: "text", text: "Read:" }, pdfPart(["Hello PDF"]) as never] }],
});

describe("withFeatures", () => {
  it("leaves the request alone when no feature rewrites it", async () => {
    const plain = request();
    expect(await withFeatures(plain, NO_FEATURES)).toBe(plain);
    expect(await withFeatures(plain, { middleOut: false, pdf: "native" })).toBe(plain);
  });

  it("parses PDFs for the file-parser's text engine", async () => {
    const parsed = await withFeatures(request(), { middleOut: false, pdf: "text" });
    expect(JSON.stringify(parsed.messages)).toContain("Hello PDF");
    expect(JSON.stringify(parsed.messages)).not.toContain("application/pdf");
  });

  it("refuses a rewrite of a native body holding members with no translation, naming them", async () => {
    const native = withNativeRequest(request(), {
      format: "anthropic",
      body: { model: "m", output_config: { effort: "high" } },
      headers: {},
      untranslated: ["output_config.effort"],
    });
    for (const features of [
      { middleOut: true, pdf: undefined },
      { middleOut: false, pdf: "text" as const },
    ]) {
      await expect(withFeatures(native, features)).rejects.toMatchObject({
        status: 400,
        code: "untranslatable_request",
        message: expect.stringContaining("output_config.effort: cannot be sent with a plugin or transform"),
      });
    }
    expect(await withFeatures(native, NO_FEATURES)).toBe(native);
  });
});
