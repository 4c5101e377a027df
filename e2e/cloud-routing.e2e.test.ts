import Anthropic from "@anthropic-ai/sdk";
import { describeWith } from "@gw/testing";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type CloudGateway,
  type CloudName,
  generationOf,
  type Plane,
  startCloudGateway,
} from "./cloud-gateway.js";
import { eventually } from "./processes.js";

// Issue 31's routing controls across three providers of one model, through the official SDKs against the
// embedded gateway. Claude Sonnet 4.5 in the default catalogue: Anthropic $3/$15 per MTok, Vertex $3/$15,
// Bedrock (US inference profile) $3.30/$16.50 and the only zero-data-retention endpoint of the three.
// Each rule is checked twice: on the fake that received the call and on the generation record's provider.

const MODEL = "anthropic/claude-sonnet-4-5";
const NITRO_MODEL = "anthropic/claude-sonnet-4";
const HEALTH_MODEL = "anthropic/claude-haiku-4-5";

interface Preferences {
  order?: string[];
  only?: string[];
  ignore?: string[];
  sort?: "price" | "throughput" | "latency";
  zdr?: boolean;
  max_price?: { prompt?: number; completion?: number };
}

type RoutedParams = OpenAI.ChatCompletionCreateParamsNonStreaming & { provider?: Preferences };
type RoutedMessage = Anthropic.MessageCreateParamsNonStreaming & { provider?: Preferences };

interface Served {
  /** The fakes that received a request: exactly one when the rule picked one provider first. */
  called: CloudName[];
  /** The generation record's provider. */
  recorded: string;
}

const suite = (plane: Plane) => () => {
  let gateway: CloudGateway;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    gateway = await startCloudGateway(plane);
    openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 });
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  afterEach(() => {
    gateway.resetScenarios();
  });

  async function served(provider: Preferences | undefined, model = MODEL): Promise<Served> {
    gateway.clearRequests();
    const params: RoutedParams = {
      model,
      messages: [{ role: "user", content: "Which cloud are you?" }],
      ...(provider ? { provider } : {}),
    };
    const { response } = await openai.chat.completions.create(params).withResponse();
    const record = await generationOf(gateway, response.headers.get("x-generation-id") ?? "");
    return { called: gateway.providersCalled(), recorded: record.provider_name };
  }

  /** What the SDK threw for a request the rule leaves no endpoint for, or whose endpoints all fail. */
  async function failed(provider: Preferences, content: string, model = MODEL): Promise<unknown> {
    gateway.clearRequests();
    const params: RoutedParams = { model, messages: [{ role: "user", content }], provider };
    return openai.chat.completions.create(params).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  const only = (provider: CloudName): Served => ({ called: [provider], recorded: provider });

  it("provider.order: the first named provider serves", async () => {
    expect(await served({ order: ["google-vertex", "amazon-bedrock", "anthropic"] })).toEqual(
      only("google-vertex"),
    );
    expect(await served({ order: ["amazon-bedrock", "anthropic"] })).toEqual(only("amazon-bedrock"));
    expect(await served({ order: ["anthropic", "google-vertex"] })).toEqual(only("anthropic"));
  });

  it("provider.only: the named provider serves", async () => {
    expect(await served({ only: ["amazon-bedrock"] })).toEqual(only("amazon-bedrock"));
    expect(await served({ only: ["google-vertex"] })).toEqual(only("google-vertex"));
  });

  it("provider.ignore: the ignored providers are never called", async () => {
    expect(await served({ ignore: ["anthropic", "google-vertex"] })).toEqual(only("amazon-bedrock"));
  });

  it("provider.sort price: the cheaper endpoint serves, every time", async () => {
    // Without a sort, one endpoint is drawn with weight 1/price², so Bedrock would serve about 45 % of
    // these; sorted by price it never does.
    for (let round = 0; round < 4; round += 1)
      expect(await served({ ignore: ["anthropic"], sort: "price" })).toEqual(only("google-vertex"));
    for (let round = 0; round < 3; round += 1) {
      const { called } = await served({ sort: "price" });
      expect(called).toHaveLength(1);
      expect(called).not.toContain("amazon-bedrock");
    }
  });

  it("provider.max_price: an endpoint above the ceiling is skipped even when ordered first", async () => {
    const ordered = { order: ["amazon-bedrock", "google-vertex", "anthropic"] };
    expect(await served({ ...ordered, max_price: { prompt: 3.1 } })).toEqual(only("google-vertex"));
    expect(await served({ ...ordered, max_price: { completion: 16.5 } })).toEqual(only("amazon-bedrock"));
    const refused = await failed({ max_price: { prompt: 1 } }, "too cheap");
    // Nothing under the ceiling: a 503 that names each endpoint and why it was left out, no call made.
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const { status, error } = refused as InstanceType<typeof OpenAI.APIError>;
    expect(status).toBe(503);
    const excluded = (error as { metadata?: { excluded?: { code: string }[] } }).metadata?.excluded;
    expect(excluded?.map((entry) => entry.code)).toEqual([
      "above_max_price",
      "above_max_price",
      "above_max_price",
    ]);
    expect(gateway.providersCalled()).toEqual([]);
  });

  it("provider.zdr: only the zero-data-retention endpoint (Bedrock) serves, on either API", async () => {
    expect(await served({ zdr: true, order: ["anthropic", "google-vertex"] })).toEqual(
      only("amazon-bedrock"),
    );
    gateway.clearRequests();
    const params: RoutedMessage = {
      model: MODEL,
      max_tokens: 32,
      messages: [{ role: "user", content: "no retention please" }],
      provider: { zdr: true },
    };
    const { response } = await anthropic.messages.create(params).withResponse();
    expect(gateway.providersCalled()).toEqual(["amazon-bedrock"]);
    const record = await generationOf(gateway, response.headers.get("x-generation-id") ?? "");
    expect(record.provider_name).toBe("amazon-bedrock");
  });

  it(":nitro: the endpoint measured fastest serves", async () => {
    // Claude Sonnet 4 (no traffic yet in this file, the same price on all three): Anthropic and Vertex
    // answer after 1.5 s, Bedrock at once; a few requests to each give the control plane its throughput
    // figures, which every edge routes on.
    for (const slow of ["anthropic", "google-vertex"] as const)
      gateway.fakes[slow].setScenario({ name: "slow", ms: 1_500 });
    for (const provider of ["anthropic", "google-vertex", "amazon-bedrock"] as const)
      for (let round = 0; round < 2; round += 1) await served({ only: [provider] }, NITRO_MODEL);
    const measured = await eventually(async () => {
      const listing = (await (
        await fetch(`${gateway.url}/api/v1/models/${NITRO_MODEL}/endpoints`, {
          headers: { authorization: `Bearer ${gateway.apiKey}` },
        })
      ).json()) as { data: { provider_id: string; throughput_last_30m: number | null }[] };
      const figures = listing.data.map((endpoint) => endpoint.throughput_last_30m);
      return figures.length === 3 && figures.every((figure) => figure !== null) ? listing : undefined;
    }, 60_000);
    const fastest = [...measured.data].sort(
      (a, b) => (b.throughput_last_30m ?? 0) - (a.throughput_last_30m ?? 0),
    )[0];
    expect(fastest?.provider_id).toBe("amazon-bedrock");
    gateway.resetScenarios();
    // The edge refreshes its figures every second; until then `:nitro` falls back to price order.
    const nitro = await eventually(async () => {
      const result = await served(undefined, `${NITRO_MODEL}:nitro`);
      return result.recorded === "amazon-bedrock" ? result : undefined;
    }, 20_000);
    expect(nitro).toEqual(only("amazon-bedrock"));
  });

  it("the catalogue gives routing something to do: ≥ 40 models on ≥ 2 providers, ZDR in every major family", async () => {
    const get = async <T>(path: string): Promise<T> => {
      const answer = await fetch(`${gateway.url}${path}`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      expect(answer.status, path).toBe(200);
      return ((await answer.json()) as { data: T }).data;
    };
    const models = await get<{ id: string }[]>("/api/v1/models");
    const listings = await Promise.all(
      models.map(async ({ id }) => ({
        id,
        endpoints: await get<{ provider_id: string; is_zdr: boolean }[]>(`/api/v1/models/${id}/endpoints`),
      })),
    );
    const multiProvider = listings.filter(
      ({ endpoints }) => new Set(endpoints.map((endpoint) => endpoint.provider_id)).size >= 2,
    );
    expect(multiProvider.length).toBeGreaterThanOrEqual(40);
    // By author: Anthropic's ZDR endpoints are Claude on Bedrock; OpenAI's and Google's are their
    // open-weight models (gpt-oss, Gemma) on ZDR hosts: no GPT-4.x/o-series or Gemini endpoint is ZDR
    // until the operator declares its Azure and Vertex arrangements (cloud-declared.e2e.test.ts).
    const zdrByAuthor = new Map<string, number>();
    for (const { id, endpoints } of listings) {
      const author = id.split("/")[0] ?? "";
      const zdr = endpoints.filter((endpoint) => endpoint.is_zdr).length;
      zdrByAuthor.set(author, (zdrByAuthor.get(author) ?? 0) + zdr);
    }
    for (const family of ["anthropic", "openai", "google", "meta-llama", "mistralai", "qwen", "deepseek"])
      expect(zdrByAuthor.get(family) ?? 0, family).toBeGreaterThan(0);
    const claudeZdr = listings
      .filter(({ id }) => id.startsWith("anthropic/claude"))
      .flatMap(({ endpoints }) => endpoints.filter((endpoint) => endpoint.is_zdr));
    expect(new Set(claudeZdr.map((endpoint) => endpoint.provider_id))).toEqual(new Set(["amazon-bedrock"]));
  });

  // Last: these failures count against the endpoints' measured health, which the sorts above rank on.
  it("under failures, only never falls over to an unnamed provider nor ignore to an ignored one", async () => {
    gateway.fakes["google-vertex"].setScenario({ name: "fail", status: 503 });
    const refused = await failed({ only: ["google-vertex"] }, "only vertex");
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(gateway.providersCalled()).toEqual(["google-vertex"]);
    // Anthropic and Bedrock fail: with Vertex ignored, both are tried and nothing reaches Vertex.
    gateway.resetScenarios();
    gateway.fakes.anthropic.setScenario({ name: "fail", status: 529 });
    gateway.fakes["amazon-bedrock"].setScenario({ name: "fail", status: 503 });
    expect(await failed({ ignore: ["google-vertex"] }, "not vertex")).toBeInstanceOf(OpenAI.APIError);
    expect(gateway.providersCalled().sort()).toEqual(["amazon-bedrock", "anthropic"]);
  });

  it("measured health: an endpoint the control plane saw failing goes last", async () => {
    // Claude Haiku 4.5, untouched so far: Anthropic and Vertex at $1/$5, Bedrock $1.10/$5.50, so price
    // order starts with Anthropic (the catalogue's first of the two).
    const baseline = await served({ sort: "price" }, HEALTH_MODEL);
    expect(baseline).toEqual(only("anthropic"));
    // Three failures in six attempts (uptime 50 %: degraded), never three in a row, so this edge's own
    // circuit stays closed and only the measured figures can move Anthropic.
    for (let round = 0; round < 3; round += 1) {
      gateway.fakes.anthropic.setScenario({ name: "fail", status: 529, times: 1 });
      expect(await failed({ only: ["anthropic"] }, "fail once", HEALTH_MODEL)).toBeInstanceOf(
        OpenAI.APIError,
      );
      expect(await served({ only: ["anthropic"] }, HEALTH_MODEL)).toEqual(only("anthropic"));
    }
    await eventually(async () => {
      const listing = (await (
        await fetch(`${gateway.url}/api/v1/models/${HEALTH_MODEL}/endpoints`, {
          headers: { authorization: `Bearer ${gateway.apiKey}` },
        })
      ).json()) as { data: { provider_id: string; status: number | null }[] };
      const anthropic = listing.data.find((endpoint) => endpoint.provider_id === "anthropic");
      return anthropic?.status === -1 ? anthropic : undefined;
    }, 60_000);
    // The edge refreshes its figures every second; then price order starts with Vertex.
    const rerouted = await eventually(async () => {
      const result = await served({ sort: "price" }, HEALTH_MODEL);
      return result.recorded === "google-vertex" ? result : undefined;
    }, 20_000);
    expect(rerouted).toEqual(only("google-vertex"));
  });
};

describe("routing controls across Anthropic, Bedrock and Vertex (embedded)", suite("embedded"));
describeWith(
  ["postgres", "redis", "kafka"],
  "routing controls across Anthropic, Bedrock and Vertex (split plane)",
  suite("split"),
);
