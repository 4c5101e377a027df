import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";
import { applyLuaMutant, LUA_MUTANTS } from "../../packages/admission-store/src/redis/lua.mutants.ts";

// The vitest config `node scripts/mutate/lua.mjs` runs the Redis store's contract suite with, once per
// hand-made Lua mutant (GW_LUA_MUTANT names it; unset = the real scripts): a transform applies the
// mutant to lua.ts's source as the suite loads it, and writes GW_LUA_MUTANT_MARK so the runner knows the
// mutated script was the one loaded.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const LUA_FILE = resolve(root, "packages/admission-store/src/redis/lua.ts");
const mutantId = process.env.GW_LUA_MUTANT ?? "";
const mutant = LUA_MUTANTS.find((candidate) => candidate.id === mutantId);
if (mutantId !== "" && !mutant) throw new Error(`GW_LUA_MUTANT: no Lua mutant ${mutantId}`);

const mutateLua: Plugin = {
  name: "gw-lua-mutant",
  enforce: "pre",
  transform(code, id) {
    if (!mutant || id.split("?")[0] !== LUA_FILE) return undefined;
    const mark = process.env.GW_LUA_MUTANT_MARK;
    if (mark) writeFileSync(mark, mutant.id);
    return { code: applyLuaMutant(code, mutant), map: null };
  },
};

export default defineConfig({
  plugins: [mutateLua],
  test: {
    root,
    include: ["packages/admission-store/src/redis-store.int.test.ts"],
    // Transformed modules are cached on disk by content, not by this mutant: a cached lua.ts would be
    // another run's (the real one or another mutant).
    fsModuleCache: false,
    globalSetup: ["./packages/testing/dist/global-setup.js"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
