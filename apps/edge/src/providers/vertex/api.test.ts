import { parseVertexCredential } from "@gw/http";
import { describe, expect, it } from "vitest";
import { vertexOrigin, vertexPath, vertexTarget } from "./api.js";
import { vertexClaudeBody } from "./index.js";

const DEFAULTS = { project: "my-project", location: "us-east5" };

describe("vertexTarget and vertexPath", () => {
  it("sends a Claude name to the anthropic publisher and a Gemini name to google, in the defaults' place", () => {
    const claude = vertexTarget("claude-sonnet-4@20250514", DEFAULTS);
    expect(claude).toEqual({
      project: "my-project",
      location: "us-east5",
      publisher: "anthropic",
      model: "claude-sonnet-4@20250514",
    });
    if ("problem" in claude) throw new Error("unexpected");
    expect(vertexPath(claude, false)).toBe(
      "/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
    );
    expect(vertexPath(claude, true)).toMatch(/:streamRawPredict$/);
    const gemini = vertexTarget("gemini-2.5-pro", DEFAULTS);
    if ("problem" in gemini) throw new Error("unexpected");
    expect(vertexPath(gemini, false)).toMatch(/publishers\/google\/models\/gemini-2.5-pro:generateContent$/);
    expect(vertexPath(gemini, true)).toMatch(/:streamGenerateContent\?alt=sse$/);
  });

  it("takes an endpoint's own project and location from a full resource name", () => {
    expect(
      vertexTarget(
        "projects/other-proj/locations/europe-west1/publishers/anthropic/models/claude-opus-4-1@20250805",
        DEFAULTS,
      ),
    ).toEqual({
      project: "other-proj",
      location: "europe-west1",
      publisher: "anthropic",
      model: "claude-opus-4-1@20250805",
    });
  });

  it("refuses names that could add a path segment, unknown publishers and a missing project", () => {
    expect(vertexTarget("../../evil", DEFAULTS)).toHaveProperty("problem");
    expect(vertexTarget("gemini-2.5-pro?x=1", DEFAULTS)).toHaveProperty("problem");
    expect(
      vertexTarget("projects/my-project/locations/us-east5/publishers/meta/models/llama", DEFAULTS),
    ).toHaveProperty("problem");
    expect(
      vertexTarget("projects/My_Project/locations/us-east5/publishers/google/models/g", DEFAULTS),
    ).toHaveProperty("problem");
    expect(vertexTarget("gemini-2.5-pro", { project: undefined, location: "global" })).toHaveProperty(
      "problem",
    );
  });

  it("uses the global host for `global` and the regional host otherwise", () => {
    expect(vertexOrigin("global")).toBe("https://aiplatform.googleapis.com");
    expect(vertexOrigin("us-east5")).toBe("https://us-east5-aiplatform.googleapis.com");
  });
});

describe("vertexClaudeBody", () => {
  it("is the Messages body without model and with Vertex's anthropic_version", () => {
    const body = vertexClaudeBody(
      {
        request: { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 10 },
        upstreamModel: "x",
        stream: true,
        signal: new AbortController().signal,
      },
      "claude-sonnet-4@20250514",
    );
    expect(body).not.toHaveProperty("model");
    expect(body).toMatchObject({ anthropic_version: "vertex-2023-10-16", max_tokens: 10, stream: true });
  });
});

describe("parseVertexCredential", () => {
  it("reads a service-account key, defaulting token_uri to Google's", () => {
    const parsed = parseVertexCredential(
      JSON.stringify({
        type: "service_account",
        client_email: "a@b.iam.gserviceaccount.com",
        private_key: "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n",
        project_id: "p1",
      }),
    );
    expect(parsed).toMatchObject({
      kind: "service-account",
      account: { tokenUri: "https://oauth2.googleapis.com/token", projectId: "p1" },
    });
  });

  it("takes other text as a bearer token and refuses what is neither", () => {
    expect(parseVertexCredential("ya29.abc")).toEqual({ kind: "token", token: "ya29.abc" });
    expect(parseVertexCredential("two words")).toHaveProperty("problem");
    expect(parseVertexCredential('{"type":"authorized_user"}')).toHaveProperty("problem");
    expect(parseVertexCredential('{"type":"service_account","client_email":"a"}')).toHaveProperty("problem");
    expect(parseVertexCredential("{not json")).toHaveProperty("problem");
  });
});
