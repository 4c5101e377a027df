import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import {
  FAKE_AWS_CREDENTIAL,
  type FakeServer,
  type FakeVertex,
  startFakeAnthropic,
  startFakeAzure,
  startFakeBedrock,
  startFakeOpenAi,
  startFakeVertex,
} from "@gw/fake-providers";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// The embedded gateway (a process) in front of every strict fake that serves Claude and GPT: Anthropic and
// OpenAI themselves, Amazon Bedrock (SigV4 checked), Google Vertex AI (service-account token exchange)
// and Azure OpenAI (key, deployment, api-version checked). Claude Sonnet 4 and 4.5 are each served by
// Anthropic, Bedrock and Vertex; GPT-4o by OpenAI and Azure.

const EMAIL = "gateway-failover@test-project.iam.gserviceaccount.com";
const ANTHROPIC_KEY = "sk-ant-e2e-failover-0123456789";
const OPENAI_KEY = "sk-e2e-failover-0123456789";
const AZURE_KEY = "e2efailover0123456789abcdef0123";

/** The Bedrock model ids the default catalogue's Claude Sonnet 4 and 4.5 endpoints call (US profiles). */
const BEDROCK_MODELS = [
  "us.anthropic.claude-sonnet-4-20250514-v1:0",
  "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
];

export type CloudName = "anthropic" | "openai" | "amazon-bedrock" | "google-vertex" | "azure";

export interface CloudGateway {
  readonly url: string;
  readonly apiKey: string;
  readonly fakes: Readonly<Record<CloudName, FakeServer>>;
  /** The catalogue providers whose fake received a request since the last `clearRequests`. */
  providersCalled(): CloudName[];
  clearRequests(): void;
  resetScenarios(): void;
  stop(): Promise<void>;
}

export async function startCloudGateway(): Promise<CloudGateway> {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const vertex: FakeVertex = await startFakeVertex({
    serviceAccounts: [
      { clientEmail: EMAIL, publicKeyPem: pair.publicKey.export({ type: "spki", format: "pem" }).toString() },
    ],
  });
  const fakes: Record<CloudName, FakeServer> = {
    anthropic: await startFakeAnthropic({ apiKey: ANTHROPIC_KEY }),
    openai: await startFakeOpenAi({ apiKey: OPENAI_KEY }),
    "amazon-bedrock": await startFakeBedrock({ knownModels: BEDROCK_MODELS }),
    "google-vertex": vertex,
    azure: await startFakeAzure({ apiKey: AZURE_KEY }),
  };
  const keyFile = JSON.stringify({
    type: "service_account",
    project_id: "test-project",
    private_key: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: EMAIL,
    token_uri: vertex.tokenUri,
  });
  const dataDir = mkdtempSync(join(tmpdir(), "gw-failover-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    GW_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_BASE_URL: fakes.openai.baseUrl,
    AWS_ACCESS_KEY_ID: FAKE_AWS_CREDENTIAL.accessKeyId,
    AWS_SECRET_ACCESS_KEY: FAKE_AWS_CREDENTIAL.secretAccessKey,
    AWS_REGION: "us-east-1",
    BEDROCK_BASE_URL: fakes["amazon-bedrock"].url,
    VERTEX_CREDENTIALS: keyFile,
    VERTEX_BASE_URL: vertex.url,
    VERTEX_LOCATION: "us-east5",
    AZURE_OPENAI_API_KEY: AZURE_KEY,
    AZURE_OPENAI_BASE_URL: fakes.azure.url,
  };
  // Only the fakes: nothing from the developer's shell may reach a real service.
  for (const name of [
    "DATABASE_URL",
    "REDIS_URL",
    "KAFKA_BROKERS",
    "GEMINI_API_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_REGION",
    "VERTEX_ACCESS_TOKEN",
    "AZURE_OPENAI_AD_TOKEN",
  ])
    env[name] = "";
  const gateway: AppProcess = startProcess("standalone", "apps/standalone/dist/main.js", env);
  await waitForHttp(`${url}/readyz`, gateway, 120_000);
  const apiKey = await eventually(async () => {
    try {
      return (JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as { api_key: string })
        .api_key;
    } catch {
      return undefined;
    }
  }, 30_000);
  const all = Object.entries(fakes) as [CloudName, FakeServer][];
  return {
    url,
    apiKey,
    fakes,
    providersCalled: () => all.filter(([, fake]) => fake.requests().length > 0).map(([name]) => name),
    clearRequests: () => {
      for (const [, fake] of all) fake.clearRequests();
    },
    resetScenarios: () => {
      for (const [, fake] of all) fake.resetScenario();
    },
    async stop() {
      await gateway.stop();
      await Promise.all(all.map(([, fake]) => fake.close()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface AttemptJson {
  provider: string;
  model: string;
  status: number;
}

export interface GenerationJson {
  provider_name: string;
  attempts: AttemptJson[];
}

/** The generation record once the usage pipeline has written it. */
export function generationOf(gateway: CloudGateway, id: string): Promise<GenerationJson> {
  return eventually(async () => {
    const lookup = await fetch(`${gateway.url}/api/v1/generation?id=${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    return lookup.status === 200 ? ((await lookup.json()) as { data: GenerationJson }).data : undefined;
  }, 30_000);
}
