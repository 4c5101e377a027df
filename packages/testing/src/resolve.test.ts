import { describe, expect, it } from "vitest";
import type { NotLaunched, Started } from "./launchers.js";
import { type ResolveDeps, redact, resolveService, resolveServices } from "./resolve.js";
import type { ServiceName } from "./services.js";

/** Fake deps: which addresses answer, whether Docker answers, and a log of every step taken. */
function fakeDeps(
  options: {
    env?: Record<string, string>;
    answering?: string[];
    recorded?: string;
    docker?: boolean;
    containerFails?: boolean;
    launcher?: Partial<Record<ServiceName, Started | NotLaunched | Error>>;
  } = {},
): ResolveDeps & { steps: string[] } {
  const steps: string[] = [];
  const answering = new Set(options.answering ?? []);
  const answers = (name: ServiceName) => async (address: string) => {
    steps.push(`${name} probe ${address}`);
    return answering.has(address);
  };
  const started = (url: string, detail: string): Started => ({
    url,
    detail,
    stop: async () => {
      steps.push(`stop ${url}`);
    },
  });
  const container = (name: ServiceName) => async () => {
    steps.push(`${name} container`);
    if (options.containerFails) throw new Error("image pull failed");
    return started(`${name}-container-url`, `container ${name}`);
  };
  const launcher = (name: ServiceName) => async () => {
    steps.push(`${name} launcher`);
    const result = options.launcher?.[name] ?? started(`${name}-launched-url`, `launched ${name}`);
    if (result instanceof Error) throw result;
    return result;
  };
  return {
    steps,
    env: options.env ?? {},
    answers: { postgres: answers("postgres"), redis: answers("redis"), kafka: answers("kafka") },
    recordedKafka: () => options.recorded,
    dockerAvailable: async () => {
      steps.push("docker ping");
      return options.docker ?? false;
    },
    containers: { postgres: container("postgres"), redis: container("redis"), kafka: container("kafka") },
    launchers: { postgres: launcher("postgres"), redis: launcher("redis"), kafka: launcher("kafka") },
    log: () => {},
  };
}

describe("resolveService", () => {
  it("uses the TEST_* variable first and probes nothing else", async () => {
    const deps = fakeDeps({
      env: { TEST_DATABASE_URL: "postgres://ci@db/test" },
      answering: ["postgres://ci@db/test", "postgres://postgres@127.0.0.1:5432/test"],
    });
    const { state, stop } = await resolveService("postgres", deps);
    expect(state).toMatchObject({ status: "available", url: "postgres://ci@db/test", source: "env" });
    expect(stop).toBeUndefined();
    expect(deps.steps).toEqual(["postgres probe postgres://ci@db/test"]);
  });

  it("does not fall back when the TEST_* variable names a service that does not answer", async () => {
    const deps = fakeDeps({
      env: { TEST_REDIS_URL: "redis://:secret@cache:6379" },
      answering: ["redis://127.0.0.1:6379"],
      docker: true,
    });
    const { state } = await resolveService("redis", deps);
    expect(state).toEqual({
      status: "unavailable",
      reason: "TEST_REDIS_URL=redis://:***@cache:6379 does not answer",
    });
    expect(deps.steps).toEqual(["redis probe redis://:secret@cache:6379"]);
  });

  it("lets a TEST_* variable switch a service off", async () => {
    const deps = fakeDeps({ env: { TEST_KAFKA_BROKERS: "none" }, answering: ["127.0.0.1:9092"] });
    const { state } = await resolveService("kafka", deps);
    expect(state).toEqual({ status: "unavailable", reason: "kafka disabled by TEST_KAFKA_BROKERS=none" });
    expect(deps.steps).toEqual([]);
  });

  it("takes a service already answering on its standard loopback port next", async () => {
    const deps = fakeDeps({ answering: ["redis://127.0.0.1:6379"], docker: true });
    const { state } = await resolveService("redis", deps);
    expect(state).toMatchObject({
      status: "available",
      url: "redis://127.0.0.1:6379",
      source: "standard-port",
    });
    expect(deps.steps).toEqual(["redis probe redis://127.0.0.1:6379"]);
  });

  it("finds the Kafka broker recorded by infra/kafka when 9092 is closed", async () => {
    const deps = fakeDeps({ answering: ["127.0.0.1:40001"], recorded: "127.0.0.1:40001", docker: true });
    const { state } = await resolveService("kafka", deps);
    expect(state).toMatchObject({ status: "available", url: "127.0.0.1:40001", source: "recorded" });
    expect(deps.steps).toEqual(["kafka probe 127.0.0.1:9092", "kafka probe 127.0.0.1:40001"]);
  });

  it("starts a container when Docker answers, and hands back how to stop it", async () => {
    const deps = fakeDeps({ docker: true });
    const { state, stop } = await resolveService("postgres", deps);
    expect(state).toMatchObject({
      status: "available",
      url: "postgres-container-url",
      source: "testcontainers",
    });
    expect(deps.steps).toEqual([
      "postgres probe postgres://postgres@127.0.0.1:5432/test",
      "docker ping",
      "postgres container",
    ]);
    await stop?.();
    expect(deps.steps.at(-1)).toBe("stop postgres-container-url");
  });

  it("falls back to the local launcher when there is no Docker engine", async () => {
    const deps = fakeDeps({ recorded: "127.0.0.1:40001" });
    const { state, stop } = await resolveService("kafka", deps);
    expect(state).toMatchObject({ status: "available", url: "kafka-launched-url", source: "launcher" });
    expect(stop).toBeTypeOf("function");
    expect(deps.steps).toEqual([
      "kafka probe 127.0.0.1:9092",
      "kafka probe 127.0.0.1:40001",
      "docker ping",
      "kafka launcher",
    ]);
  });

  it("falls back to the local launcher when the container fails to start", async () => {
    const deps = fakeDeps({ docker: true, containerFails: true });
    const { state } = await resolveService("postgres", deps);
    expect(state).toMatchObject({ status: "available", source: "launcher" });
  });

  it("reports every step's reason when nothing works", async () => {
    const deps = fakeDeps({
      docker: true,
      containerFails: true,
      launcher: { kafka: { unavailable: "no local Kafka: java is not installed" } },
    });
    const { state } = await resolveService("kafka", deps);
    expect(state).toEqual({
      status: "unavailable",
      reason:
        "nothing answers at 127.0.0.1:9092; no .kafka/broker.env; testcontainers failed: image pull failed; " +
        "no local Kafka: java is not installed",
    });
  });

  it("reports a launcher that throws", async () => {
    const deps = fakeDeps({ launcher: { redis: new Error("port in use") } });
    const { state } = await resolveService("redis", deps);
    expect(state.status === "unavailable" && state.reason).toBe(
      "nothing answers at redis://127.0.0.1:6379; no Docker engine answers (testcontainers skipped); " +
        "local launcher failed: port in use",
    );
  });
});

describe("resolveServices", () => {
  it("resolves all three, asks Docker once, and collects what must be stopped", async () => {
    const deps = fakeDeps({ answering: ["redis://127.0.0.1:6379"] });
    const { services, stops } = await resolveServices(deps);
    expect(services.postgres).toMatchObject({ status: "available", source: "launcher" });
    expect(services.redis).toMatchObject({ status: "available", source: "standard-port" });
    expect(services.kafka).toMatchObject({ status: "available", source: "launcher" });
    expect(deps.steps.filter((step) => step === "docker ping")).toHaveLength(1);
    expect(stops).toHaveLength(2);
  });
});

describe("redact", () => {
  it("hides passwords in connection URLs", () => {
    expect(redact("postgres://user:pw@host:5432/db")).toBe("postgres://user:***@host:5432/db");
    expect(redact("postgres://postgres@127.0.0.1:5432/test")).toBe("postgres://postgres@127.0.0.1:5432/test");
    expect(redact("127.0.0.1:9092")).toBe("127.0.0.1:9092");
  });
});
