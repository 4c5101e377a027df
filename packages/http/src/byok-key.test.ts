import { describe, expect, it } from "vitest";
import { byokSecret } from "./byok-key.js";

const PEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";

describe("byokSecret", () => {
  it("keeps a pasted service-account key file as one line of JSON", () => {
    const file = JSON.stringify(
      { type: "service_account", client_email: "a@b.iam.gserviceaccount.com", private_key: PEM },
      null,
      2,
    );
    const checked = byokSecret("google-vertex", file);
    expect(checked).toEqual({ secret: JSON.stringify(JSON.parse(file)) });
    expect("secret" in checked && checked.secret.includes("\n")).toBe(false);
  });

  it("refuses a service-account key file whose token_uri is not Google's (the edge would POST to it)", () => {
    const file = (tokenUri: string) =>
      JSON.stringify({
        type: "service_account",
        client_email: "a@b.iam.gserviceaccount.com",
        private_key: PEM,
        token_uri: tokenUri,
      });
    expect(byokSecret("google-vertex", file("http://169.254.169.254/latest"))).toEqual({
      problem: "the service-account key's token_uri must be https://oauth2.googleapis.com/token",
    });
    expect(byokSecret("google-vertex", file("https://oauth2.googleapis.com/token"))).toHaveProperty("secret");
  });

  it("checks an AWS credential for Bedrock and keeps it as one line of JSON", () => {
    const credential = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG" };
    expect(byokSecret("amazon-bedrock", JSON.stringify(credential, null, 2))).toEqual({
      secret: JSON.stringify(credential),
    });
    expect(byokSecret("amazon-bedrock", "AKIAIOSFODNN7EXAMPLE")).toHaveProperty("problem");
    expect(byokSecret("amazon-bedrock", '{"accessKeyId":"short","secretAccessKey":"x"}')).toHaveProperty(
      "problem",
    );
  });

  it("holds other providers' keys to the header rules", () => {
    expect(byokSecret("openai", " sk-1 ")).toEqual({ secret: "sk-1" });
    expect(byokSecret("openai", "sk\n1")).toHaveProperty("problem");
    expect(byokSecret("openai", '{"type":"service_account"}')).toEqual({
      secret: '{"type":"service_account"}',
    });
  });

  it("refuses an Azure JSON credential whose endpoint is not an Azure host", () => {
    expect(byokSecret("azure", '{"endpoint":"https://evil.example","api_key":"k"}')).toHaveProperty(
      "problem",
    );
    expect(byokSecret("azure", '{"endpoint":"https://acme.openai.azure.com","api_key":"k"}')).toEqual({
      secret: '{"endpoint":"https://acme.openai.azure.com","api_key":"k"}',
    });
  });
});
