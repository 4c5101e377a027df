import { chmodSync, existsSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

const SEARCH_BY_OTHERS = 0o001;

/**
 * Gives "others" search permission (x, not read) on every directory above each path that lacks it,
 * and returns the directories it changed. Started as root, embedded PostgreSQL runs as a dedicated
 * system user, which must be able to reach its binaries (inside node_modules) and its data directory;
 * a checkout in `mktemp -d` (mode 0700) or under /root would otherwise stop initdb with EACCES.
 */
export function makeAncestorsSearchable(paths: readonly string[]): string[] {
  const changed: string[] = [];
  for (const path of paths) {
    for (let dir = parentDirectory(path); ; dir = dirname(dir)) {
      const { mode } = statSync(dir);
      if ((mode & SEARCH_BY_OTHERS) === 0) {
        chmodSync(dir, (mode & 0o7777) | SEARCH_BY_OTHERS);
        changed.push(dir);
      }
      if (dirname(dir) === dir) break;
    }
  }
  return changed;
}

/** The real directory `path` is in; for a path not made yet (a data directory), its nearest existing ancestor. */
function parentDirectory(path: string): string {
  const target = resolve(path);
  if (existsSync(target)) return dirname(realpathSync(target));
  let ancestor = dirname(target);
  while (!existsSync(ancestor)) ancestor = dirname(ancestor);
  return realpathSync(ancestor);
}
