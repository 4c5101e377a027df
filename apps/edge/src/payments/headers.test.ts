import { isGatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { decodeX402Header, encodeX402Header, paymentHeaderOf } from "./headers.js";

function refusal(run: () => unknown): { status: number; code: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("x402 header codec", () => {
  it("round-trips JSON as standard base64 over UTF-8 (what @x402/core's decoder reads)", () => {
    const value = { x402Version: 2, error: "naïve ✓", accepts: [{ amount: "1" }] };
    const encoded = encodeX402Header(value);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    expect(JSON.parse(Buffer.from(encoded, "base64").toString("utf8"))).toEqual(value);
    expect(decodeX402Header(encoded, "payment-signature")).toEqual(value);
  });

  it("refuses what is not base64 JSON of an object with 400 payment_malformed, naming the header", () => {
    const b64 = (text: string) => Buffer.from(text).toString("base64");
    const cases: Array<[string, RegExp]> = [
      ["", /not standard base64/],
      ["***", /not standard base64/],
      // base64url (`-`, `_`) is not what x402 sends.
      [b64('{"a":"??>"}').replace(/\+/g, "-").replace(/\//g, "_"), /not standard base64/],
      ["abc", /not standard base64/],
      [b64("not json"), /not JSON/],
      [b64("[1,2]"), /not an object/],
      [b64("null"), /not an object/],
      ["A".repeat(20_000), /not standard base64/],
      // Issue 33's depth class: forwarded and written out recursively, so bounded as a body is.
      [b64(`{"a":${"[".repeat(5_000)}${"]".repeat(5_000)}}`), /nests too deeply/],
    ];
    for (const [raw, message] of cases) {
      const refused = refusal(() => decodeX402Header(raw, "payment-signature"));
      expect(refused).toMatchObject({ status: 400, code: "payment_malformed" });
      expect(refused.message).toMatch(/PAYMENT-SIGNATURE/);
      expect(refused.message).toMatch(message);
    }
  });

  it("reads v2's PAYMENT-SIGNATURE before v1's X-PAYMENT, and nothing when neither is sent", () => {
    const v2 = encodeX402Header({ x402Version: 2 });
    const v1 = encodeX402Header({ x402Version: 1 });
    expect(paymentHeaderOf({ "payment-signature": v2, "x-payment": v1 })).toEqual({
      header: "v2",
      payload: { x402Version: 2 },
    });
    expect(paymentHeaderOf({ "x-payment": v1 })).toEqual({ header: "v1", payload: { x402Version: 1 } });
    expect(paymentHeaderOf({ authorization: "Bearer x" })).toBeUndefined();
    expect(refusal(() => paymentHeaderOf({ "x-payment": "%%%" })).message).toMatch(/X-PAYMENT/);
  });
});
