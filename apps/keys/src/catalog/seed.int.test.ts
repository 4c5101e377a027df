import * as grpc from "@grpc/grpc-js";
import { toCatalogSnapshot } from "@gw/catalog";
import type { Database } from "@gw/db";
import { InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import { CatalogServiceClient, type GetSnapshotResponse } from "@gw/proto/catalog/v1/catalog";
import { bindGrpcServer, insecureCredentials, isGrpcError, shutdownGrpcServer, unaryCall } from "@gw/rpc";
import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { KeysTables } from "../db/schema.js";
import { createGrpcServer } from "../grpc.js";
import { fixtureCatalog } from "../test/catalog-fixture.js";
import { bundledCatalog, contentVersion } from "./content.js";
import { seedCatalog } from "./seed.js";

describeWith(["postgres"], "catalogue", () => {
  let test: MigratedTestDatabase<KeysTables>;
  let server: grpc.Server;
  let client: InstanceType<typeof CatalogServiceClient>;
  let getSnapshot: (knownVersion: string) => Promise<GetSnapshotResponse>;

  function serve(database: Database<KeysTables>): grpc.Server {
    return createGrpcServer({
      database,
      bus: new InProcessEventBus(),
      topics: { usage: "u", keyChanges: "k", payments: "p" },
      logger: silentLogger(),
      billing: { getUsage: () => Promise.reject(new Error("not used")) },
    });
  }

  beforeAll(async () => {
    test = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
    server = serve(test.database);
    const port = await bindGrpcServer(server, "127.0.0.1", 0);
    client = new CatalogServiceClient(`127.0.0.1:${port}`, insecureCredentials());
    const call = unaryCall(client, client.getSnapshot);
    getSnapshot = (knownVersion) => call({ knownVersion });
  });

  afterAll(async () => {
    client?.close();
    if (server) await shutdownGrpcServer(server);
    await test?.drop();
  });

  async function counts() {
    const db = test.database.db;
    const [providers, models, endpoints] = await Promise.all([
      db
        .selectFrom("providers")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("models")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("model_endpoints")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow(),
    ]);
    return { providers: Number(providers.n), models: Number(models.n), endpoints: Number(endpoints.n) };
  }

  describe("catalogue seeding and CatalogService.GetSnapshot", () => {
    it("is unavailable, not empty, before the first seed", async () => {
      const error = await getSnapshot("").catch((caught: unknown) => caught);
      expect(isGrpcError(error) && error.code).toBe(grpc.status.UNAVAILABLE);
    });

    it("seeds once and is idempotent: same content, same version, same rows", async () => {
      const first = await seedCatalog(test.database.db, fixtureCatalog());
      expect(first).toEqual({ version: contentVersion(fixtureCatalog()), changed: true });
      const rows = await counts();
      expect(rows).toEqual({ providers: 5, models: 2, endpoints: 3 });
      const second = await seedCatalog(test.database.db, fixtureCatalog());
      expect(second).toEqual({ version: first.version, changed: false });
      expect(await counts()).toEqual(rows);
    });

    it("serves the seeded content exactly, and not_modified for the current version", async () => {
      const fixture = fixtureCatalog();
      await seedCatalog(test.database.db, fixture);
      const full = await getSnapshot("");
      expect(full.notModified).toBe(false);
      expect(full.version).toBe(contentVersion(fixture));
      expect(full.providers).toEqual(fixture.providers);
      expect(full.models).toEqual(fixture.models);

      const unchanged = await getSnapshot(full.version);
      expect(unchanged).toEqual({ version: full.version, notModified: true, providers: [], models: [] });
    });

    it("moves the version when content changes, and drops what the catalogue no longer lists", async () => {
      await seedCatalog(test.database.db, fixtureCatalog());
      const before = await getSnapshot("");
      const changed = fixtureCatalog();
      const mini = changed.models[0]!;
      mini.endpoints[0]!.pricing!.promptPico = 175_000n;
      changed.models = [mini];
      changed.providers = changed.providers.filter((provider) => provider.id === "openai");

      const result = await seedCatalog(test.database.db, changed);
      expect(result.changed).toBe(true);
      expect(result.version).not.toBe(before.version);
      expect(await counts()).toEqual({ providers: 1, models: 1, endpoints: 1 });

      const after = await getSnapshot(before.version);
      expect(after.notModified).toBe(false);
      expect(after.version).toBe(result.version);
      expect(after.models).toEqual([mini]);
      expect(after.models[0]?.endpoints[0]?.pricing?.promptPico).toBe(175_000n);
    });

    it("seeds the bundled @gw/catalog losslessly under its own version", async () => {
      const bundled = toCatalogSnapshot();
      const result = await seedCatalog(test.database.db, bundledCatalog());
      expect(result.version).toBe(bundled.version);
      const served = await getSnapshot("");
      expect(served.version).toBe(bundled.version);
      expect(served.providers).toEqual(bundled.providers);
      // The wire leaves an absent model limit unset; compare after the same normalisation.
      expect(served.models).toEqual(
        bundled.models.map(({ modelLimit, ...model }) => (modelLimit ? { ...model, modelLimit } : model)),
      );
    });

    it("lets concurrent seeders agree on one result", async () => {
      const changed = fixtureCatalog();
      changed.models[0]!.name = "renamed concurrently";
      const results = await Promise.all([
        seedCatalog(test.database.db, changed),
        seedCatalog(test.database.db, changed),
        seedCatalog(test.database.db, changed),
      ]);
      expect(results.filter((result) => result.changed)).toHaveLength(1);
      expect(new Set(results.map((result) => result.version)).size).toBe(1);
    });
  });
});
