import { openRouterModel } from "@gw/catalog";
import { Model } from "@gw/proto/catalog/v1/catalog";
import { describe, expect, it } from "vitest";
import { anthropicModelList, modelsDialect } from "./native-models.js";
import type { ModelEntry } from "./openai/models.js";

const entry = (id: string): ModelEntry =>
  openRouterModel(
    Model.fromPartial({ id, name: id, author: "a", kind: "chat", createdUnix: 1_700_000_000n }),
    [],
  );
const entries = ["a/1", "a/2", "a/3", "a/4", "a/5"].map(entry);

describe("native model lists", () => {
  it("tells the SDKs apart by their headers and path", () => {
    expect(modelsDialect({ path: "/v1/models", headers: { "anthropic-version": "2023-06-01" } })).toBe(
      "anthropic",
    );
    expect(modelsDialect({ path: "/v1/models", headers: { "x-goog-api-key": "k" } })).toBe("gemini");
    expect(modelsDialect({ path: "/v1beta/models", headers: {} })).toBe("gemini");
    expect(modelsDialect({ path: "/v1/models", headers: { authorization: "Bearer k" } })).toBe("openai");
  });

  it("pages Anthropic's way with limit, after_id and before_id", () => {
    const ids = (query: Record<string, string>) =>
      (anthropicModelList(entries, query).data as { id: string }[]).map((model) => model.id);
    expect(anthropicModelList(entries, { limit: "2" })).toMatchObject({
      has_more: true,
      first_id: "a/1",
      last_id: "a/2",
    });
    expect(ids({ limit: "2", after_id: "a/2" })).toEqual(["a/3", "a/4"]);
    expect(anthropicModelList(entries, { limit: "2", after_id: "a/4" })).toMatchObject({ has_more: false });
    expect(ids({ limit: "2", before_id: "a/4" })).toEqual(["a/2", "a/3"]);
    expect(() => anthropicModelList(entries, { limit: "0" })).toThrow(/limit/);
  });
});
