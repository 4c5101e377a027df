import { generateKeyPairSync } from "node:crypto";
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
import { startEmbedded, startSplit } from "./cloud-planes.js";
import { eventually } from "./processes.js";

// The gateway (embedded, or the split plane's four processes) in front of every strict fake that serves Claude and GPT: Anthropic and
// OpenAI themselves, Amazon Bedrock (SigV4 checked), Google Vertex AI (service-account token exchange)
// and Azure OpenAI (key, deployment, api-version checked). Claude Sonnet 4 and 4.5 are each served by
// Anthropic, Bedrock and Vertex; GPT-4o by OpenAI and Azure.

const EMAIL = "gateway-failover@test-project.iam.gserviceaccount.com";
const ANTHROPIC_KEY = "sk-ant-e2e-failover-0123456789";
const OPENAI_KEY = "sk-e2e-failover-0123456789";
const AZURE_KEY = "e2efailover0123456789abcdef0123";

/** The Bedrock model ids the default catalogue's Claude Sonnet 4, 4.5 and Haiku 4.5 endpoints call (US profiles). */
const BEDROCK_MODELS = [
  "us.anthropic.claude-sonnet-4-20250514-v1:0",
  "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  "us.anthropic.claude-haiku-4-5-20251001-v1:0",
];

export type CloudName = "anthropic" | "openai" | "amazon-bedrock" | "google-vertex" | "azure";

export interface CloudGateway {
  readonly url: string;
  readonly apiKey: string;
  /** A new operator token (the operator CLI against the gateway's database). */
  operatorToken(name: string): Promise<string>;
  readonly fakes: Readonly<Record<CloudName, FakeServer>>;
  /** The catalogue providers whose fake received a request since the last `clearRequests`. */
  providersCalled(): CloudName[];
  clearRequests(): void;
  resetScenarios(): void;
  stop(): Promise<void>;
}

export type Plane = "embedded" | "split";

export interface CloudGatewayOptions {
  /**
   * The operator's catalogue declarations (VERTEX_ZERO_DATA_RETENTION, AZURE_OPENAI_DEPLOYMENTS): given to
   * the keys app as well as the edge on the split plane.
   */
  readonly catalogueEnv?: Readonly<Record<string, string>>;
  /** The fake Azure resource's deployments (deployment → model); default one per GPT model, named after it. */
  readonly azureDeployments?: Readonly<Record<string, string>>;
  /** Models the fake Bedrock serves besides the Claude ones the failover suites call. */
  readonly bedrockModels?: readonly string[];
}

export async function startCloudGateway(
  plane: Plane = "embedded",
  options: CloudGatewayOptions = {},
): Promise<CloudGateway> {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const vertex: FakeVertex = await startFakeVertex({
    serviceAccounts: [
      { clientEmail: EMAIL, publicKeyPem: pair.publicKey.export({ type: "spki", format: "pem" }).toString() },
    ],
  });
  const fakes: Record<CloudName, FakeServer> = {
    anthropic: await startFakeAnthropic({ apiKey: ANTHROPIC_KEY }),
    openai: await startFakeOpenAi({ apiKey: OPENAI_KEY }),
    "amazon-bedrock": await startFakeBedrock({
      knownModels: [...BEDROCK_MODELS, ...(options.bedrockModels ?? [])],
    }),
    "google-vertex": vertex,
    azure: await startFakeAzure({
      apiKey: AZURE_KEY,
      ...(options.azureDeployments ? { deployments: options.azureDeployments } : {}),
    }),
  };
  const keyFile = JSON.stringify({
    type: "service_account",
    project_id: "test-project",
    private_key: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: EMAIL,
    token_uri: vertex.tokenUri,
  });
  const providers: Record<string, string> = {
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
    ...options.catalogueEnv,
  };
  // Only the fakes: nothing from the developer's shell may reach a real service.
  for (const name of [
    "GEMINI_API_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_REGION",
    "VERTEX_ACCESS_TOKEN",
    "AZURE_OPENAI_AD_TOKEN",
  ])
    providers[name] = "";
  const running =
    plane === "embedded"
      ? await startEmbedded(providers)
      : await startSplit(providers, options.catalogueEnv ?? {});
  const all = Object.entries(fakes) as [CloudName, FakeServer][];
  return {
    url: running.url,
    apiKey: running.apiKey,
    operatorToken: (name) => running.operatorToken(name),
    fakes,
    providersCalled: () => all.filter(([, fake]) => fake.requests().length > 0).map(([name]) => name),
    clearRequests: () => {
      for (const [, fake] of all) fake.clearRequests();
    },
    resetScenarios: () => {
      for (const [, fake] of all) fake.resetScenario();
    },
    async stop() {
      await running.stop();
      await Promise.all(all.map(([, fake]) => fake.close()));
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
