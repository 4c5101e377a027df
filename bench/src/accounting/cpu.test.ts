import { describe, expect, it } from "vitest";
import { type Counted, cpuBetween, msPerRequest } from "./cpu.js";
import { serviceProcesses } from "./services.js";

const counted: Counted[] = [
  { name: "edge", pid: 1, role: "app" },
  { name: "billing", pid: 2, role: "app" },
  { name: "postgresql", pid: 3, role: "infrastructure" },
  { name: "redis", pid: 4, role: "infrastructure" },
];

describe("cpuBetween and msPerRequest", () => {
  // 10 s of scenario, 5,000 requests completed.
  const figures = cpuBetween(
    counted,
    {
      edge: { own: 10, descendants: 0, live: 0 },
      billing: { own: 3, descendants: 0, live: 0 },
      postgresql: { own: 1, descendants: 20, live: 6 },
      redis: { own: 4, descendants: 0, live: 0 },
    },
    {
      edge: { own: 12, descendants: 0, live: 0 },
      billing: { own: 3.5, descendants: 0, live: 0 },
      // Backends that exited moved their time into the postmaster's cutime: descendants grew by 1 s.
      postgresql: { own: 1.1, descendants: 21, live: 5 },
      redis: undefined, // vanished: counts nothing rather than a negative or a guess
    },
    10,
    5000,
  );

  it("charges each tree its own and its descendants' CPU between the readings, per core and per request", () => {
    expect(figures.edge).toEqual({
      role: "app",
      seconds: 2,
      ownSeconds: 2,
      liveDescendants: 0,
      percent: 20,
      msPerRequest: 0.4,
    });
    expect(figures.postgresql?.seconds).toBeCloseTo(1.1, 10);
    expect(figures.postgresql?.ownSeconds).toBeCloseTo(0.1, 10);
    expect(figures.postgresql?.liveDescendants).toBe(5);
    expect(figures.postgresql?.msPerRequest).toBeCloseTo(0.22, 10);
    expect(figures.redis?.seconds).toBe(0);
  });

  it("divides the CPU seconds of all counted trees by the requests completed, or only the apps'", () => {
    // (2 + 0.5 + 1.1 + 0) s × 1000 / 5000 = 0.72 ms; apps only (2 + 0.5) s → 0.5 ms.
    expect(msPerRequest(figures, 5000)).toBeCloseTo(0.72, 10);
    expect(msPerRequest(figures, 5000, ["app"])).toBeCloseTo(0.5, 10);
    expect(msPerRequest(figures, 0)).toBeUndefined();
  });
});

describe("serviceProcesses", () => {
  it("looks up the listening process of each loopback service by its port, default ports included", () => {
    const ports: number[] = [];
    const { counted: found, missing } = serviceProcesses(
      {
        kafkaBrokers: "127.0.0.1:41417,127.0.0.1:41418",
        databaseUrl: "postgres://postgres@127.0.0.1/test",
        redisUrl: "redis://localhost:6380",
      },
      (port) => {
        ports.push(port);
        return port === 6380 ? undefined : port + 1;
      },
    );
    expect(ports).toEqual([41417, 5432, 6380]);
    expect(found).toEqual([
      { name: "kafka", pid: 41418, role: "infrastructure" },
      { name: "postgresql", pid: 5433, role: "infrastructure" },
    ]);
    expect(missing).toEqual([expect.stringMatching(/^redis \(localhost:6380/)]);
  });

  it("names a service on another host as not counted instead of sampling some local process", () => {
    const { counted: found, missing } = serviceProcesses(
      { redisUrl: "redis://cache.internal:6379" },
      () => 1234,
    );
    expect(found).toEqual([]);
    expect(missing).toEqual([expect.stringMatching(/^redis \(cache\.internal:6379/)]);
  });
});
