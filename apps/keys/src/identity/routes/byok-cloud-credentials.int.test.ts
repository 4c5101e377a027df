import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CredentialJson } from "../byok/view.js";
import type { CreatedAccount } from "../operator.js";

// An account's own Google Vertex AI and Azure OpenAI credentials (issue 31) have shapes of their own: a
// service-account key file (pasted as the file, newlines and all) or a bearer token; an Azure key or Entra
// token, or JSON naming the account's own Azure resource. Anything else is a 400 naming `key`, nothing is
// stored, and the refusal never echoes the secret.
const PEM =
  "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n";
const KEY_FILE = JSON.stringify(
  {
    type: "service_account",
    project_id: "acme-prod",
    private_key_id: "abc",
    private_key: PEM,
    client_email: "gw@acme-prod.iam.gserviceaccount.com",
    token_uri: "https://oauth2.googleapis.com/token",
  },
  null,
  2,
);

describeWith(["postgres"], "BYOK: cloud credentials are checked against their provider's shape", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("cloud-owner");
  });
  afterAll(async () => {
    await harness?.close();
  });

  const create = (provider: string, key: string) =>
    harness.request("POST", "/api/v1/byok", { key: owner.managementKey, body: { provider, key } });
  const remove = (id: string) =>
    harness.request("DELETE", `/api/v1/byok/${id}`, { key: owner.managementKey });

  describe("google-vertex", () => {
    it("accepts a service-account key file as pasted (multi-line JSON) and a bearer token", async () => {
      const file = await create("google-vertex", KEY_FILE);
      expect(file.status).toBe(201);
      expect(JSON.stringify(file.body)).not.toContain("BEGIN PRIVATE KEY");
      await remove((file.body.data as CredentialJson).id);
      const token = await create("google-vertex", "ya29.a0AfB_byC-account-token");
      expect(token.status).toBe(201);
      await remove((token.body.data as CredentialJson).id);
    });

    it.each([
      ["another kind of JSON", JSON.stringify({ type: "authorized_user", refresh_token: "secret-rt" })],
      [
        "a key file without its private key",
        JSON.stringify({ type: "service_account", client_email: "a@b.c" }),
      ],
      ["broken JSON", '{"type": "service_account", "private_key": "secret-pk'],
      ["a token with a line break", "ya29.secret\nX-Injected: yes"],
    ])("refuses %s with 400 naming the key, without echoing it", async (_label, key) => {
      const response = await create("google-vertex", key);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ metadata: { field: "key" } });
      expect(JSON.stringify(response.body)).not.toContain("secret");
    });
  });

  describe("azure", () => {
    it("accepts a bare resource key and JSON naming the account's own Azure resource", async () => {
      const bare = await create("azure", "0123456789abcdef0123456789abcdef");
      expect(bare.status).toBe(201);
      await remove((bare.body.data as CredentialJson).id);
      const json = await create(
        "azure",
        JSON.stringify({ endpoint: "https://acme.openai.azure.com", api_key: "k-1" }),
      );
      expect(json.status).toBe(201);
      await remove((json.body.data as CredentialJson).id);
    });

    it("refuses an endpoint that is not an Azure OpenAI host, so the gateway cannot be pointed elsewhere", async () => {
      for (const endpoint of [
        "http://127.0.0.1:8080",
        "https://attacker.example",
        "http://acme.openai.azure.com",
      ]) {
        const response = await create("azure", JSON.stringify({ endpoint, api_key: "secret-key" }));
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ metadata: { field: "key" } });
        expect(JSON.stringify(response.body)).not.toContain("secret-key");
      }
    });
  });
});
