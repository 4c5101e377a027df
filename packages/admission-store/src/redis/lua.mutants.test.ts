import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyLuaMutant, LUA_MUTANTS, LUA_SCRIPTS } from "./lua.mutants.js";

const source = readFileSync(new URL("./lua.ts", import.meta.url), "utf8");

// The hand-made Lua mutants (run by `node scripts/mutate/lua.mjs`) must stay current: a change to the
// Lua that makes one stale fails here, in the unit tests, not only when the mutants are run.
describe("the hand-made Lua mutants", () => {
  it.each(LUA_MUTANTS.map((mutant) => [mutant.id, mutant] as const))(
    "%s matches once in its script",
    (_, mutant) => {
      const mutated = applyLuaMutant(source, mutant);
      expect(mutated).not.toBe(source);
      expect(mutated.length).toBe(source.length - mutant.find.length + mutant.replace.length);
    },
  );

  it("cover every script of lua.ts, each mutant named once", () => {
    expect(new Set(LUA_MUTANTS.map((mutant) => mutant.script))).toEqual(new Set(LUA_SCRIPTS));
    expect(new Set(LUA_MUTANTS.map((mutant) => mutant.id)).size).toBe(LUA_MUTANTS.length);
  });

  it("refuses a mutant whose text is gone or ambiguous", () => {
    const gone = {
      id: "gone",
      script: "SETTLE_LUA",
      description: "",
      find: "no such text",
      replace: "",
    } as const;
    expect(() => applyLuaMutant(source, gone)).toThrow(
      /gone is stale: its text matches nowhere in SETTLE_LUA/,
    );
    const twice = { ...gone, id: "twice", find: "redis.call(" } as const;
    expect(() => applyLuaMutant(source, twice)).toThrow(/more than once/);
    // Text of another script does not count: TTL refresh of RELEASE_LUA is not in SETTLE_LUA.
    expect(() => applyLuaMutant(source, { ...gone, find: "touch(ARGV[2])" })).toThrow(/nowhere/);
  });
});
