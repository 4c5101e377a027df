import { describe, expect, it } from "vitest";
import { signedHeaders } from "./signing.js";

const CREDENTIAL = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};
const NOW = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const target = (body: string, region = "eu-west-1") => ({
  url: new URL("https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-x-v1%3A0/invoke"),
  region,
  body,
  headers: { "content-type": "application/json", accept: "application/json" },
});

describe("SigV4 signing of a Bedrock call", () => {
  it("scopes the signature to the date, the region and Bedrock's signing name, over host and x-amz-date", async () => {
    const headers = await signedHeaders(target("{}"), CREDENTIAL, NOW);
    expect(headers["x-amz-date"]).toBe("20260102T030405Z");
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20260102\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    // undici sets Host from the pool's origin; a second one would be refused.
    expect(headers).not.toHaveProperty("host");
  });

  it("is the same for the same request and instant, and changes with the body, the region or the time", async () => {
    const signature = async (body: string, region?: string, at = NOW) =>
      /Signature=(\w+)/.exec(
        (await signedHeaders(target(body, region), CREDENTIAL, at)).authorization ?? "",
      )?.[1];
    const base = await signature("{}");
    expect(await signature("{}")).toBe(base);
    expect(await signature('{"a":1}')).not.toBe(base);
    expect(await signature("{}", "us-east-1")).not.toBe(base);
    expect(await signature("{}", undefined, new Date(NOW.getTime() + 1000))).not.toBe(base);
  });

  it("sends and signs a temporary credential's session token", async () => {
    const headers = await signedHeaders(target("{}"), { ...CREDENTIAL, sessionToken: "token-1" }, NOW);
    expect(headers["x-amz-security-token"]).toBe("token-1");
    expect(headers.authorization).toContain(
      "SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token",
    );
  });
});
