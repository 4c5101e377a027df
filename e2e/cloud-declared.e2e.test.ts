import { describeWith } from "@gw/testing";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CloudGateway, generationOf, type Plane, startCloudGateway } from "./cloud-gateway.js";
import { eventually } from "./processes.js";

// Issue 31's catalogue as an operator runs it, through the official `openai` SDK at its defaults, on the
// embedded gateway and the split plane: the operator declares its Vertex project and some Azure
// deployments zero-data-retention (VERTEX_ZERO_DATA_RETENTION, AZURE_OPENAI_DEPLOYMENTS), so every major
// model family has a ZDR endpoint in GET /api/v1/models and `provider.zdr: true` reaches the declared
// endpoints; and open-weight models are served by Bedrock through Converse / ConverseStream (the strict
// fake checks each request's SigV4 signature and Converse body).

/** The fake Azure resource's deployments: one per GPT model named after it, and the operator's `prod-4o`. */
const AZURE_DEPLOYMENTS = Object.fromEntries([
  ...["gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o3", "o3-mini", "o4-mini", "o1"].map(
    (model) => [model, model],
  ),
  ["prod-4o", "gpt-4o"],
]);

const DECLARATIONS = {
  VERTEX_ZERO_DATA_RETENTION: "true",
  AZURE_OPENAI_DEPLOYMENTS: JSON.stringify({
    "gpt-4o": { deployment: "prod-4o", zero_data_retention: true },
    "gpt-4.1": { zero_data_retention: true },
    o3: { zero_data_retention: true },
  }),
};

/** The open-weight models' Bedrock ids (packages/catalog/src/models/bedrock-converse.ts). */
const CONVERSE = {
  "meta-llama/llama-3.3-70b-instruct": "us.meta.llama3-3-70b-instruct-v1:0",
  "qwen/qwen3-32b": "qwen.qwen3-32b-v1:0",
  "mistralai/mistral-large-2512": "mistral.mistral-large-3-675b-instruct",
} as const;

/** The major families the issue names, by model id. */
const FAMILIES: Record<string, RegExp> = {
  Claude: /^anthropic\/claude-/,
  "GPT-4.1": /^openai\/gpt-4\.1/,
  "GPT-4o": /^openai\/gpt-4o/,
  "o-series": /^openai\/o\d/,
  "Gemini 2.5": /^google\/gemini-2\.5-/,
  Llama: /^meta-llama\//,
  Mistral: /^mistralai\//,
  Qwen: /^qwen\//,
  DeepSeek: /^deepseek\//,
  "gpt-oss": /^openai\/gpt-oss-/,
};

type Routed = OpenAI.ChatCompletionCreateParamsNonStreaming & {
  provider?: { zdr?: boolean; only?: string[]; order?: string[] };
};

interface EndpointJson {
  provider_id: string;
  is_zdr: boolean;
}

const suite = (plane: Plane) => () => {
  let gateway: CloudGateway;
  let openai: OpenAI;

  beforeAll(async () => {
    gateway = await startCloudGateway(plane, {
      catalogueEnv: DECLARATIONS,
      azureDeployments: AZURE_DEPLOYMENTS,
      bedrockModels: Object.values(CONVERSE),
    });
    openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1` });
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  async function get<T>(path: string): Promise<T> {
    const answer = await fetch(`${gateway.url}${path}`, {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    expect(answer.status, path).toBe(200);
    return ((await answer.json()) as { data: T }).data;
  }

  it("with the operator's declarations every major family has a ZDR endpoint in GET /api/v1/models", async () => {
    const models = await get<{ id: string }[]>("/api/v1/models");
    const zdrByFamily = new Map<string, string[]>();
    const zdrOf = new Map<string, string[]>();
    for (const { id } of models) {
      const family = Object.keys(FAMILIES).find((name) => FAMILIES[name]?.test(id));
      if (!family) continue;
      const endpoints = await get<EndpointJson[]>(`/api/v1/models/${id}/endpoints`);
      const zdr = endpoints.filter((endpoint) => endpoint.is_zdr).map((endpoint) => endpoint.provider_id);
      zdrOf.set(id, zdr);
      zdrByFamily.set(family, [...(zdrByFamily.get(family) ?? []), ...zdr]);
    }
    for (const family of Object.keys(FAMILIES))
      expect(zdrByFamily.get(family)?.length ?? 0, family).toBeGreaterThan(0);
    // Exactly what was declared: the Azure deployments named, every Vertex endpoint, Bedrock by its policy.
    expect(zdrOf.get("openai/gpt-4o")).toEqual(["azure"]);
    expect(zdrOf.get("openai/gpt-4.1")).toEqual(["azure"]);
    expect(zdrOf.get("openai/o3")).toEqual(["azure"]);
    expect(zdrOf.get("openai/gpt-4o-mini")).toEqual([]);
    expect(zdrOf.get("google/gemini-2.5-pro")).toEqual(["google-vertex"]);
    expect(new Set(zdrOf.get("anthropic/claude-sonnet-4-5"))).toEqual(
      new Set(["amazon-bedrock", "google-vertex"]),
    );
    expect(zdrOf.get("meta-llama/llama-3.3-70b-instruct")).toContain("amazon-bedrock");
  });

  it("provider.zdr: true reaches the declared Azure deployment and the Vertex project", async () => {
    const served = async (model: string, provider: Routed["provider"]) => {
      gateway.clearRequests();
      const params: Routed = { model, messages: [{ role: "user", content: "keep nothing" }], provider };
      const { response } = await openai.chat.completions.create(params).withResponse();
      const record = await generationOf(gateway, response.headers.get("x-generation-id") ?? "");
      return { called: gateway.providersCalled(), recorded: record.provider_name };
    };
    expect(await served("openai/gpt-4o", { zdr: true, order: ["openai"] })).toEqual({
      called: ["azure"],
      recorded: "azure",
    });
    // The edge read the same map: the call went to the operator's deployment, not one named after the model.
    expect(gateway.fakes.azure.requests().map((request) => request.path)).toEqual([
      expect.stringMatching(/^\/openai\/deployments\/prod-4o\/chat\/completions\?api-version=/),
    ]);
    expect(await served("google/gemini-2.5-flash", { zdr: true })).toEqual({
      called: ["google-vertex"],
      recorded: "google-vertex",
    });
    // Claude: Vertex is ZDR now too, so an order naming it first is kept under zdr.
    expect(
      await served("anthropic/claude-sonnet-4-5", { zdr: true, order: ["google-vertex", "anthropic"] }),
    ).toEqual({ called: ["google-vertex"], recorded: "google-vertex" });
    // An undeclared deployment stays what its policy says: no ZDR endpoint, a 503 and no call.
    gateway.clearRequests();
    const refused = await openai.chat.completions
      .create({
        model: "openai/gpt-4o-mini",
        messages: [{ role: "user", content: "x" }],
        provider: { zdr: true },
      } as Routed)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect(gateway.providersCalled()).toEqual([]);
  });

  it("an operator's data-policy override through the edge: GPT-4o mini on Azure becomes ZDR, and zdr routes to it", async () => {
    const model = "openai/gpt-4o-mini";
    const token = await gateway.operatorToken(`zdr-${plane}`);
    const policy = async (key: string, is_zdr: boolean) =>
      fetch(`${gateway.url}/api/v1/admin/catalog/data-policy`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model, provider: "azure", is_zdr }),
      });
    // A tenant's key cannot declare it.
    expect((await policy(gateway.apiKey, true)).status).toBe(403);
    expect((await policy(token, true)).status).toBe(200);
    const zdr = async () =>
      (await get<EndpointJson[]>(`/api/v1/models/${model}/endpoints`))
        .filter((endpoint) => endpoint.is_zdr)
        .map((endpoint) => endpoint.provider_id);
    expect(await zdr()).toEqual(["azure"]);
    // The edge routes on the new snapshot once its catalogue poll has it.
    const params: Routed = { model, messages: [{ role: "user", content: "z" }], provider: { zdr: true } };
    const served = await eventually(async () => {
      gateway.clearRequests();
      const answer = await openai.chat.completions.create(params).then(
        () => gateway.providersCalled(),
        () => undefined,
      );
      return answer?.length ? answer : undefined;
    }, 20_000);
    expect(served).toEqual(["azure"]);
    expect((await policy(token, false)).status).toBe(200);
    expect(await zdr()).toEqual([]);
  });

  it("open-weight models on Bedrock through Converse, not streamed and streamed", async () => {
    for (const [model, bedrockId] of Object.entries(CONVERSE)) {
      gateway.clearRequests();
      const params: Routed = {
        model,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: `Say hello from ${model}` },
        ],
        max_tokens: 64,
        provider: { only: ["amazon-bedrock"] },
      };
      const { data, response } = await openai.chat.completions.create(params).withResponse();
      expect(data.choices[0]?.message.content, model).toMatch(/\S/);
      expect(data.usage?.prompt_tokens, model).toBeGreaterThan(0);
      const converse = gateway.fakes["amazon-bedrock"].requests();
      expect(converse.map((request) => request.path)).toEqual([
        `/model/${encodeURIComponent(bedrockId)}/converse`,
      ]);
      expect(converse[0]?.body).toMatchObject({
        system: [{ text: "Be brief." }],
        inferenceConfig: { maxTokens: 64 },
      });
      const record = await generationOf(gateway, response.headers.get("x-generation-id") ?? "");
      expect(record.provider_name).toBe("amazon-bedrock");

      gateway.clearRequests();
      const stream = await openai.chat.completions.create({
        ...params,
        stream: true,
      } as OpenAI.ChatCompletionCreateParamsStreaming);
      let text = "";
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(text, model).toBe(data.choices[0]?.message.content);
      expect(finish, model).toBe("stop");
      expect(gateway.fakes["amazon-bedrock"].requests().map((request) => request.path)).toEqual([
        `/model/${encodeURIComponent(bedrockId)}/converse-stream`,
      ]);
    }
  });
};

describe(
  "the operator's cloud catalogue: ZDR declarations, open-weight models on Bedrock (embedded)",
  suite("embedded"),
);
describeWith(
  ["postgres", "redis", "kafka"],
  "the operator's cloud catalogue: ZDR declarations, open-weight models on Bedrock (split plane)",
  suite("split"),
);
