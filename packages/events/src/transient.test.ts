import { describe, expect, it } from "vitest";
import { isTransientFailure } from "./transient.js";

const coded = (message: string, code: string | number, extra: object = {}) =>
  Object.assign(new Error(message), { code }, extra);

describe("isTransientFailure: a service down, not a message that cannot be applied", () => {
  it("takes PostgreSQL's restart, refusal and lost connections for an outage", () => {
    for (const error of [
      coded("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      coded("terminating connection due to administrator command", "57P01"),
      coded("the database system is starting up", "57P03"),
      coded("connection failure", "08006"),
      coded("sorry, too many clients already", "53300"),
      coded("could not serialize access", "40001"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      new AggregateError([coded("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], "connect failed"),
      new Error("ledger batch failed", { cause: coded("read ECONNRESET", "ECONNRESET") }),
    ])
      expect(isTransientFailure(error), String(error)).toBe(true);
  });

  it("takes Redis' closed connection and a gRPC peer unavailable for an outage", () => {
    expect(isTransientFailure(new Error("Connection is closed."))).toBe(true);
    expect(isTransientFailure(coded("14 UNAVAILABLE: No connection established", 14, { metadata: {} }))).toBe(
      true,
    );
    expect(isTransientFailure(coded("4 DEADLINE_EXCEEDED", 4, { metadata: {} }))).toBe(true);
  });

  it("leaves everything else to the dead-letter rule: bad data, constraint and code errors", () => {
    for (const error of [
      new Error("cannot handle this one"),
      new TypeError("Cannot read properties of undefined (reading 'accountId')"),
      coded('duplicate key value violates unique constraint "ledger_pkey"', "23505"),
      coded("invalid input syntax for type uuid", "22P02"),
      coded("value too long", "22001"),
      coded("3 INVALID_ARGUMENT", 3, { metadata: {} }),
      // A number 14 without gRPC's metadata is not a gRPC status.
      coded("odd", 14),
      new Error("wrapped", { cause: new Error("index out of range") }),
      "a string thrown",
      undefined,
    ])
      expect(isTransientFailure(error), String(error)).toBe(false);
  });

  it("does not loop on a cause chain that points back at itself", () => {
    const error = new Error("outer") as Error & { cause?: unknown };
    error.cause = error;
    expect(isTransientFailure(error)).toBe(false);
  });
});
