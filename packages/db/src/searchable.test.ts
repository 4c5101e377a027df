import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAncestorsSearchable } from "./searchable.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe("makeAncestorsSearchable", () => {
  it("adds only others' search bit to the directories above a path that lack it", () => {
    const root = mkdtempSync(join(tmpdir(), "gw-searchable-")); // mode 0700, like mktemp -d
    roots.push(root);
    const nested = join(root, "repo", "node_modules");
    mkdirSync(nested, { recursive: true, mode: 0o750 });
    const changed = makeAncestorsSearchable([join(nested, "pkg.js")]);
    expect(changed).toContain(root);
    expect(mode(root)).toBe(0o701);
    expect(mode(join(root, "repo")) & 0o001).toBe(0o001);
    expect(mode(join(root, "repo")) & 0o004).toBe(0);
  });

  it("changes nothing where every directory is already searchable", () => {
    const root = mkdtempSync(join(tmpdir(), "gw-searchable-"));
    roots.push(root);
    makeAncestorsSearchable([join(root, "file")]);
    expect(makeAncestorsSearchable([join(root, "file")])).toEqual([]);
  });
});
