import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { providerSettings } from "./settings.js";

const KEY_FILE = JSON.stringify({
  type: "service_account",
  project_id: "key-project",
  client_email: "gw@key-project.iam.gserviceaccount.com",
  private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
});

function problems(env: Record<string, string>): string[] {
  try {
    providerSettings(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

describe("cloud provider settings", () => {
  it("turns Vertex on with a key file's JSON, project from the file unless VERTEX_PROJECT says", () => {
    const [vertex] = providerSettings({ VERTEX_CREDENTIALS: KEY_FILE, VERTEX_LOCATION: "us-east5" }).filter(
      (s) => s.id === "google-vertex",
    );
    expect(vertex).toMatchObject({
      apiFormat: "vertex",
      baseUrl: "https://aiplatform.googleapis.com",
      vertex: { location: "us-east5", explicitBase: false },
    });
    expect(vertex?.apiKey).toBe(KEY_FILE);
  });

  it("turns Azure on only with a key and the resource's base URL", () => {
    expect(
      providerSettings({ AZURE_OPENAI_BASE_URL: "https://r.openai.azure.com" }).some((s) => s.id === "azure"),
    ).toBe(false);
    expect(problems({ AZURE_OPENAI_API_KEY: "k" })).toEqual([
      expect.stringContaining("AZURE_OPENAI_BASE_URL"),
    ]);
    const [azure] = providerSettings({
      AZURE_OPENAI_API_KEY: "k",
      AZURE_OPENAI_BASE_URL: "https://r.openai.azure.com",
      AZURE_OPENAI_DEPLOYMENTS: '{"gpt-4o":"prod-4o"}',
    }).filter((s) => s.id === "azure");
    expect(azure?.azure).toEqual({ apiVersion: "2024-10-21", deployments: { "gpt-4o": "prod-4o" } });
  });

  it("takes a deployment declared zero-data-retention by its name (the flag is the catalogue's)", () => {
    const [azure] = providerSettings({
      AZURE_OPENAI_API_KEY: "k",
      AZURE_OPENAI_BASE_URL: "https://r.openai.azure.com",
      AZURE_OPENAI_DEPLOYMENTS:
        '{"gpt-4o":{"deployment":"prod-4o","zero_data_retention":true},"o3":{"zero_data_retention":true},"gpt-4.1":"g41"}',
    }).filter((s) => s.id === "azure");
    expect(azure?.azure?.deployments).toEqual({ "gpt-4o": "prod-4o", o3: "o3", "gpt-4.1": "g41" });
  });

  it("names the variable of each bad value", () => {
    expect(problems({ VERTEX_CREDENTIALS: "/nonexistent/key.json" })).toEqual([
      expect.stringMatching(/^VERTEX_CREDENTIALS: cannot read/),
    ]);
    expect(problems({ VERTEX_ACCESS_TOKEN: "t", VERTEX_LOCATION: "us/east" })).toEqual([
      expect.stringMatching(/^VERTEX_LOCATION/),
    ]);
    expect(problems({ VERTEX_CREDENTIALS: '{"type":"user"}' })).toEqual([
      expect.stringMatching(/^VERTEX_CREDENTIALS/),
    ]);
    const azure = { AZURE_OPENAI_API_KEY: "k", AZURE_OPENAI_BASE_URL: "https://r.openai.azure.com" };
    expect(problems({ ...azure, AZURE_OPENAI_API_VERSION: "latest" })).toEqual([
      expect.stringMatching(/^AZURE_OPENAI_API_VERSION/),
    ]);
    expect(problems({ ...azure, AZURE_OPENAI_DEPLOYMENTS: '{"gpt-4o":"a/b"}' })).toEqual([
      expect.stringMatching(/^AZURE_OPENAI_DEPLOYMENTS/),
    ]);
    expect(problems({ ...azure, AZURE_OPENAI_DEPLOYMENTS: "[1]" })).toEqual([
      expect.stringMatching(/^AZURE_OPENAI_DEPLOYMENTS/),
    ]);
    expect(
      problems({
        ...azure,
        AZURE_OPENAI_DEPLOYMENTS: '{"gpt-4o":{"deployment":"d","zero_data_retention":"yes"}}',
      }),
    ).toEqual(['AZURE_OPENAI_DEPLOYMENTS: "gpt-4o" zero_data_retention must be true or false']);
  });
});
