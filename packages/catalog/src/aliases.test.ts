import { describe, expect, it } from "vitest";
import { indexCatalog } from "./catalog.js";
import { listPrice } from "./pricing.js";
import { PROVIDERS } from "./providers.js";
import type { CatalogData, Model } from "./types.js";
import { validateCatalog } from "./validate.js";

function chat(id: string, aliases: string[]): Model {
  return {
    id,
    name: id,
    author: id.split("/")[0] ?? id,
    kind: "chat",
    createdUnix: 0n,
    contextLength: 1_000,
    isFree: false,
    modelLimit: null,
    aliases,
    endpoints: [
      {
        providerId: "openai",
        upstreamModel: id.split("/")[1] ?? id,
        contextLength: 1_000,
        maxCompletionTokens: 100,
        pricing: listPrice({ prompt: "1", completion: "2" }),
        quantization: null,
        isZdr: false,
        supportedParameters: [],
        mayTrainOnData: false,
        inputModalities: ["text"],
      },
    ],
  };
}

const data = (...models: Model[]): CatalogData => ({ providers: PROVIDERS, models });

describe("model aliases", () => {
  it("resolve to their model, variants included", () => {
    const index = indexCatalog(data(chat("openai/a", ["openai/a-latest"])));
    expect(index.resolveModel("openai/a-latest")?.model.id).toBe("openai/a");
    expect(index.resolveModel("openai/a-latest:nitro")).toMatchObject({ variant: "nitro" });
    expect(index.findModel("openai/a-other")).toBeUndefined();
  });

  it("are refused when shared, equal to a model id, malformed or carrying a variant", () => {
    const problems = validateCatalog(
      data(
        chat("openai/a", ["openai/shared", "openai/b", "no-slash"]),
        chat("openai/b", ["openai/shared", "openai/b-latest:free"]),
      ),
    );
    expect(problems).toEqual([
      "alias openai/b of openai/a: is a model id",
      "alias no-slash of openai/a: not an <author>/<name> id",
      "alias openai/shared of openai/b: also names openai/a",
      "alias openai/b-latest:free of openai/b: has a variant suffix",
    ]);
  });
});
