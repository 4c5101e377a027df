import { GatewayError } from "@gw/errors";
import type { GetSnapshotResponse } from "@gw/proto/catalog/v1/catalog";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import type { CatalogContent } from "./content.js";
import { readCatalog, readCatalogVersion } from "./read.js";

export interface VersionedCatalog {
  version: string;
  content: CatalogContent;
}

/**
 * Reads the catalogue from the tables. Edges poll often and the catalogue rarely changes, so the last
 * read is kept in memory by version: a poll or a model listing costs one read of the version row.
 */
export class CatalogSnapshots {
  private cached: VersionedCatalog | undefined;

  constructor(private readonly db: Kysely<KeysTables>) {}

  async get(knownVersion: string): Promise<GetSnapshotResponse> {
    const version = await this.version();
    if (knownVersion === version) return { version, notModified: true, providers: [], models: [] };
    const current = await this.load(version);
    return { version: current.version, notModified: false, ...current.content };
  }

  async current(): Promise<VersionedCatalog> {
    return this.load(await this.version());
  }

  private async version(): Promise<string> {
    const version = await readCatalogVersion(this.db);
    if (version === undefined) {
      throw new GatewayError("service_unavailable", "the catalogue has not been seeded yet", {
        code: "catalog_not_seeded",
      });
    }
    return version;
  }

  private async load(version: string): Promise<VersionedCatalog> {
    if (this.cached?.version === version) return this.cached;
    const read = await readCatalog(this.db);
    if (read.version === undefined) throw new Error("catalogue version vanished while reading");
    this.cached = { version: read.version, content: read.content };
    return this.cached;
  }
}
