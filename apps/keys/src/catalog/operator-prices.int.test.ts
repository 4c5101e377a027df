import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { KeysTables } from "../db/schema.js";
import { bundledCatalog } from "./content.js";
import {
  type OperatorPrice,
  OperatorPriceError,
  readOperatorPrices,
  setOperatorPrice,
} from "./operator-prices.js";
import { readCatalog, readCatalogVersion } from "./read.js";
import { seedCatalog } from "./seed.js";
import { refreshCatalog } from "./store.js";

const o3: OperatorPrice = {
  modelId: "openai/o9",
  providerId: "openai",
  upstreamModel: "o9",
  promptPico: 2_000_000n,
  completionPico: 8_000_000n,
  requestPico: 0n,
};

describeWith(["postgres"], "operator prices in the catalogue tables", () => {
  let test: MigratedTestDatabase<KeysTables>;

  beforeAll(async () => {
    test = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
    await seedCatalog(test.database.db, bundledCatalog());
  });

  afterAll(async () => {
    await test?.drop();
  });

  const served = async (modelId: string) =>
    (await readCatalog(test.database.db)).content.models.find((model) => model.id === modelId);

  it("stores the price and re-seeds the catalogue with the model, under a new version", async () => {
    const db = test.database.db;
    const before = await readCatalogVersion(db);
    const { version } = await setOperatorPrice(db, o3, bundledCatalog());
    expect(version).not.toBe(before);
    expect(await readCatalogVersion(db)).toBe(version);
    expect(await readOperatorPrices(db)).toEqual([
      { ...o3, contextLength: undefined, maxCompletionTokens: undefined },
    ]);
    const model = await served("openai/o9");
    expect(model?.endpoints).toHaveLength(1);
    expect(model?.endpoints[0]).toMatchObject({
      providerId: "openai",
      upstreamModel: "o9",
      pricing: { promptPico: 2_000_000n, completionPico: 8_000_000n, requestPico: 0n },
    });
  });

  it("keeps the model across a start-up seed (bundled plus operator prices): nothing changes", async () => {
    const db = test.database.db;
    const version = await readCatalogVersion(db);
    const seeded = await refreshCatalog(db, bundledCatalog());
    expect(seeded).toEqual({ version, changed: false });
    expect(await served("openai/o9")).toBeDefined();
  });

  it("updates a price in place and moves the version again", async () => {
    const db = test.database.db;
    const version = await readCatalogVersion(db);
    const updated = await setOperatorPrice(
      db,
      { ...o3, completionPico: 10_000_000n, requestPico: 5n },
      bundledCatalog(),
    );
    expect(updated.version).not.toBe(version);
    expect(await readOperatorPrices(db)).toHaveLength(1);
    expect((await served("openai/o9"))?.endpoints[0]?.pricing).toMatchObject({
      completionPico: 10_000_000n,
      requestPico: 5n,
    });
  });

  it.each([
    [{ providerId: "nope" }, "unknown provider: nope"],
    [{ modelId: "no-slash" }, "model id must be <author>/<slug>"],
    [{ modelId: "openai/has space" }, "model id must be <author>/<slug>"],
    [{ upstreamModel: "" }, "upstream model must be 1-256 printable characters"],
    [{ upstreamModel: "a\u0000b" }, "upstream model must be 1-256 printable characters"],
    [{ promptPico: -1n }, "openai/o9-bad: promptPico must not be negative"],
    [
      { promptPico: 0n, completionPico: 0n, requestPico: 0n },
      "at least one of the prompt, completion or request price",
    ],
    [{ contextLength: 0 }, "context length must be a whole number from 1 to 10,000,000: 0"],
    [{ maxCompletionTokens: 1.5 }, "max completion tokens must be a whole number"],
  ] as Array<[Partial<OperatorPrice>, string]>)("refuses %o: %s, storing nothing", async (patch, message) => {
    const db = test.database.db;
    const version = await readCatalogVersion(db);
    const bad = { ...o3, modelId: "openai/o9-bad", ...patch };
    await expect(setOperatorPrice(db, bad, bundledCatalog())).rejects.toThrow(OperatorPriceError);
    await expect(setOperatorPrice(db, bad, bundledCatalog())).rejects.toThrow(message);
    expect(await readCatalogVersion(db)).toBe(version);
    expect((await readOperatorPrices(db)).map((price) => price.modelId)).toEqual(["openai/o9"]);
  });
});
