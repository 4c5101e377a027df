import { describe, expect, it } from "vitest";
import { azureChatPath, azureDeployment } from "./api.js";
import { parseAzureCredential } from "./credential.js";

describe("azureChatPath", () => {
  it("puts the deployment in the path with the api-version, or uses the v1 path", () => {
    expect(azureChatPath("prod 4o", "2024-10-21")).toBe(
      "/openai/deployments/prod%204o/chat/completions?api-version=2024-10-21",
    );
    expect(azureChatPath("prod", "v1")).toBe("/openai/v1/chat/completions");
  });

  it("maps a model to its configured deployment, else a deployment named after it", () => {
    const options = { apiVersion: "v1", deployments: { "gpt-4o": "my-4o" } };
    expect(azureDeployment("gpt-4o", options)).toBe("my-4o");
    expect(azureDeployment("gpt-4.1", options)).toBe("gpt-4.1");
  });
});

describe("parseAzureCredential", () => {
  it("tells a resource key from an Entra ID token by its shape", () => {
    expect(parseAzureCredential("0123456789abcdef")).toEqual({
      kind: "api-key",
      key: "0123456789abcdef",
      endpoint: undefined,
    });
    expect(parseAzureCredential("eyJhbGciOiJSUzI1NiJ9.eyJhIjoxfQ.c2ln")).toMatchObject({ kind: "entra" });
  });

  it("reads an account's JSON credential with its own Azure endpoint, and refuses any other host", () => {
    expect(parseAzureCredential('{"endpoint":"https://acme.openai.azure.com/","api_key":"k1"}')).toEqual({
      kind: "api-key",
      key: "k1",
      endpoint: "https://acme.openai.azure.com",
    });
    for (const endpoint of [
      "http://acme.openai.azure.com",
      "https://127.0.0.1",
      "https://evil.example/openai.azure.com",
      "https://acme.openai.azure.com:8443",
    ])
      expect(parseAzureCredential(JSON.stringify({ endpoint, api_key: "k1" }))).toHaveProperty("problem");
    expect(parseAzureCredential('{"endpoint":"https://acme.openai.azure.com"}')).toHaveProperty("problem");
  });
});
