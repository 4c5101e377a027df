import { logLevel } from "kafkajs";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { kafkajsLevel, pinoLogCreator } from "./log.js";

function capture(level = "debug") {
  const lines: Array<{ level: number; msg: string; namespace?: string; broker?: string }> = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const entry = (level: logLevel, message: string, extra: Record<string, string> = {}) => ({
  namespace: "Connection",
  level,
  label: "",
  log: { timestamp: "2026-01-01T00:00:00.000Z", logger: "kafkajs", message, ...extra },
});

describe("pinoLogCreator", () => {
  it("routes kafkajs entries to pino, demoting kafkajs errors to warnings", () => {
    const { logger, lines } = capture();
    const log = pinoLogCreator(logger)(logLevel.DEBUG);
    log(entry(logLevel.ERROR, "Connection error: connect ECONNREFUSED", { broker: "127.0.0.1:9092" }));
    log(entry(logLevel.INFO, "Consumer has joined the group"));
    log(entry(logLevel.DEBUG, "Request Metadata"));
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [40, "Connection error: connect ECONNREFUSED"],
      [30, "Consumer has joined the group"],
      [20, "Request Metadata"],
    ]);
    expect(lines[0]).toMatchObject({ namespace: "Connection", broker: "127.0.0.1:9092" });
  });

  it("drops kafkajs' warning about limited retries of the idempotent producer", () => {
    const { logger, lines } = capture();
    pinoLogCreator(logger)(logLevel.WARN)(
      entry(logLevel.WARN, "Limiting retries for the idempotent producer may invalidate EoS guarantees"),
    );
    expect(lines).toEqual([]);
  });

  it("keeps kafkajs quiet unless the service logs at debug", () => {
    expect(kafkajsLevel(capture("info").logger)).toBe(logLevel.WARN);
    expect(kafkajsLevel(capture("debug").logger)).toBe(logLevel.DEBUG);
    expect(kafkajsLevel(capture("silent").logger)).toBe(logLevel.NOTHING);
  });
});
