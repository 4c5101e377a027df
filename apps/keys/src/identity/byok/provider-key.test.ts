import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { providerKeyLabel } from "./provider-key.js";

const secret = "bedrock/secret/value/never/shown/000000";
const aws = (fields: Record<string, unknown>) =>
  JSON.stringify({ accessKeyId: "AKIAEXAMPLE000000001", ...fields });

// An AWS credential for Bedrock is JSON (@gw/http parseAwsCredential): checked when it is entered (the
// service calls this before sealing, on create and on re-key), labelled by its access key id.
describe("a BYOK key's label and shape", () => {
  it.each([
    ["not JSON", "AKIAEXAMPLE000000001"],
    ["no secret", aws({})],
    ["an unknown member", aws({ secretAccessKey: secret, x: 1 })],
    ["a bad region", aws({ secretAccessKey: secret, region: "mars" })],
    ["a bad access key id", JSON.stringify({ accessKeyId: "short", secretAccessKey: secret })],
  ])("refuses an AWS credential with %s as a 400 naming key, never echoing the secret", (_label, key) => {
    let thrown: unknown;
    try {
      providerKeyLabel("amazon-bedrock", key);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ kind: "invalid_request", metadata: { field: "key" } });
    expect((thrown as Error).message).not.toContain(secret);
  });

  it("labels a well-formed AWS credential by its access key id, never the secret", () => {
    const label = providerKeyLabel(
      "amazon-bedrock",
      aws({ secretAccessKey: secret, sessionToken: "token", region: "eu-west-3" }),
    );
    expect(label).toBe("AKI...0001");
    expect(label).not.toContain(secret.slice(-4));
  });

  it("leaves other providers' keys to the plain mask", () => {
    expect(providerKeyLabel("openai", "sk-abcdefghijklmnop")).toBe("sk-...mnop");
  });
});
