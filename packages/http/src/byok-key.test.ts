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
