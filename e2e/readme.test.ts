import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@gw/testing";
import { describe, expect, it } from "vitest";
import { NOT_OURS, READ_IN_PASSING, READS, type Reader, SPLIT_APPS } from "./config-readers.js";

// The README's claims, checked: its configuration table against what each app's configuration really
// reads, and every command it shows against the scripts, pnpm scripts and files that carry it out.

const root = repoRoot();
const readme = readFileSync(join(root, "README.md"), "utf8");

interface Row {
  variables: string[];
  /** Who the table says reads them. */
  readers: Reader[];
}

/** The rows of the table under "## Configuration", with `<PROVIDER>_X` expanded to each provider. */
function configurationRows(): Row[] {
  const section = readme.split("\n## Configuration")[1]?.split("\n## ")[0] ?? "";
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|").map((cell) => cell.trim()));
  return rows.map(([, variableCell = "", readerCell = "", meaning = ""]) => {
    const names = [...variableCell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
    const providers = [...meaning.matchAll(/`([A-Z][A-Z0-9]+)`/g)].map((match) => match[1] as string);
    const variables = names.flatMap((name) =>
      name.startsWith("<PROVIDER>")
        ? providers.map((provider) => name.replace("<PROVIDER>", provider))
        : [name],
    );
    return { variables, readers: readersOf(readerCell) };
  });
}

function readersOf(cell: string): Reader[] {
  return cell.split(",").flatMap((word): Reader[] => {
    const reader = word.trim().toLowerCase();
    if (reader === "each app" || reader === "all apps" || reader === "all") return [...SPLIT_APPS];
    if (reader === "cli") return ["cli"];
    if (SPLIT_APPS.includes(reader as Reader) || reader === "standalone") return [reader as Reader];
    throw new Error(`README configuration table: unknown reader "${word.trim()}"`);
  });
}

describe("README configuration table", () => {
  const rows = configurationRows();

  it("is found, with rows", () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(Object.values(READS).every((names) => names.size > 0)).toBe(true);
  });

  it("names only variables the named apps read", () => {
    const unread = rows.flatMap((row) =>
      row.variables.flatMap((variable) =>
        row.readers
          .filter((reader) => !READS[reader].has(variable))
          .map((reader) => `${variable} (${reader})`),
      ),
    );
    expect(unread).toEqual([]);
  });

  it("lists every variable each app reads, under that app", () => {
    const listed = (reader: Reader, variable: string) =>
      rows.some(
        (row) =>
          row.variables.includes(variable) &&
          // "each app" / "all" cover the embedded default too, which reads the same shared variables.
          (row.readers.includes(reader) || (reader === "standalone" && row.readers.length >= 4)),
      );
    const missing = (Object.keys(READS) as Reader[]).flatMap((reader) =>
      [...READS[reader]]
        .filter((variable) => !NOT_OURS.has(variable) && !listed(reader, variable))
        .filter(
          (variable) =>
            !(variable in READ_IN_PASSING && listed(READ_IN_PASSING[variable] as Reader, variable)),
        )
        .map((variable) => `${variable} (${reader})`),
    );
    expect(missing).toEqual([]);
  });
});

/** Each shell line of the README's code blocks, split into its commands. */
function readmeCommands(): string[] {
  const blocks = [...readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  return blocks
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => line.split(/\s*(?:&&|;|\|\||&)\s*/))
    .map((command) => command.replace(/^(?:[A-Z_]+=\S+\s+)+/, "").trim())
    .filter(Boolean);
}

const PNPM_BUILTINS = new Set(["install", "exec", "add", "run", "--filter"]);
const rootScripts = Object.keys(
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts,
);

/** Files the README's commands write before a later command reads them. */
const WRITTEN_BY: Record<string, string> = { ".kafka/broker.env": "bash infra/kafka/kafka.sh start" };

/** Why a command cannot run from this checkout, or undefined when what it names exists. */
function problem(command: string, earlier: readonly string[]): string | undefined {
  const redirected = earlier.flatMap((previous) => [...previous.matchAll(/>\s*(\S+)/g)].map((m) => m[1]));
  const written = (file: string) =>
    redirected.includes(file) || (WRITTEN_BY[file] !== undefined && earlier.includes(WRITTEN_BY[file]));
  const [program, ...args] = command.split(/\s+/);
  const first = args.find((arg) => !arg.startsWith("-"));
  switch (program) {
    case "pnpm":
      if (!first || PNPM_BUILTINS.has(first) || rootScripts.includes(first)) return undefined;
      return `no pnpm script "${first}" in package.json`;
    case "bash":
    case "source":
      return first && (existsSync(join(root, first)) || written(first)) ? undefined : `no file ${first}`;
    case "node": {
      if (!first || args[0] === "-p") return undefined;
      // Built output: the source it is compiled from must exist.
      const source = first.replace("/dist/", "/src/").replace(/\.js$/, ".ts");
      return existsSync(join(root, source)) ? undefined : `no ${source} to build ${first} from`;
    }
    case "docker":
      return existsSync(join(root, "docker-compose.yml")) ? undefined : "no docker-compose.yml";
    case "curl":
    case "export":
    case "set":
      return undefined;
    default:
      return `unknown program ${program}`;
  }
}

describe("README commands", () => {
  const commands = readmeCommands();

  it("are found", () => {
    expect(commands).toContain("bash scripts/test.sh");
    expect(commands.length).toBeGreaterThan(10);
  });

  it("each name a script, pnpm script or file that exists", () => {
    expect(commands.flatMap((command, index) => problem(command, commands.slice(0, index)) ?? [])).toEqual(
      [],
    );
  });

  it("the docker-compose file runs only programs the images contain", () => {
    const compose = readFileSync(join(root, "docker-compose.yml"), "utf8");
    for (const match of compose.matchAll(/node (dist\/[\w/.-]+\.js)/g)) {
      const script = (match[1] as string).replace("dist/", "src/").replace(/\.js$/, ".ts");
      // Each app image holds one app (infra/docker/Dockerfile): its dist/ is built from its src/.
      const inSomeApp = SPLIT_APPS.some((app) => existsSync(join(root, "apps", app, script)));
      expect(inSomeApp, match[0]).toBe(true);
    }
  });
});

/** Every file of the repository (sources, tests, docs), as repo-relative paths, for the app READMEs' citations. */
function repoFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (["node_modules", "dist", ".git", ".tools", ".data", ".turbo", "coverage"].includes(entry.name))
        continue;
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const top of ["apps", "packages", "e2e", "bench", "docs", "scripts", "infra"]) {
    if (existsSync(join(root, top))) walk(top);
  }
  return files;
}

// The app READMEs cite source files (`admission/lease.ts`) and the tests their figures come from
// (`limits.e2e`, `overshoot.int`): each citation must name a file that exists, so a figure cannot
// outlive the test it was measured by, nor a description the file it describes.
describe("app READMEs' citations", () => {
  const files = repoFiles();
  const apps = readdirSync(join(root, "apps")).filter((app) =>
    existsSync(join(root, "apps", app, "README.md")),
  );

  it("are found", () => {
    expect(apps.length).toBeGreaterThanOrEqual(5);
  });

  it.each(apps)("apps/%s/README.md names only files and tests that exist", (app) => {
    const text = readFileSync(join(root, "apps", app, "README.md"), "utf8");
    const cited = [...text.matchAll(/`([\w./-]+)`/g)].map((match) => match[1] as string);
    const sourceFiles = cited.filter((name) => /^[\w./-]+\.(ts|tsx)$/.test(name) && !name.startsWith("."));
    const tests = cited.filter((name) => /^[\w-]+(\.[\w-]+)*\.(int|e2e|kafka)$/.test(name));
    const missing = [
      ...sourceFiles.filter((name) => !files.some((file) => file === name || file.endsWith(`/${name}`))),
      ...tests.filter((name) => !files.some((file) => file.endsWith(`/${name}.test.ts`))),
    ];
    expect(missing).toEqual([]);
  });
});

// Numbers the root README states about the system, each against the code or test that holds it.
describe("README figures", () => {
  it("states the health freshness bound the cross-edge test holds", () => {
    const claim = /held within (\d+) s by\s+`([^`]+)`/.exec(readme);
    expect(claim, "README: 'held within N s by `test`'").not.toBeNull();
    const [, seconds = "", file = ""] = claim ?? [];
    const bound = /FRESHNESS_BOUND_MS = ([\d_]+);/.exec(readFileSync(join(root, file), "utf8"))?.[1];
    expect(Number(bound?.replaceAll("_", ""))).toBe(Number(seconds) * 1000);
  });

  it("says when scripts/start.sh installs Node, as scripts/env.sh decides it", () => {
    const floor = /\[ "\$\(node_major\)" -lt (\d+) \]/.exec(
      readFileSync(join(root, "scripts/env.sh"), "utf8"),
    )?.[1];
    expect(floor).toBeDefined();
    expect(readme).toContain(`only if the system Node is older than ${floor}`);
  });
});

// The README's mutation-testing paragraph: the floors it states are the runner's, what it says CI runs
// is in .ci/run, and every area the runner knows has a committed report for CI to start from.
describe("README mutation testing", () => {
  const paragraph = readme.slice(readme.indexOf("Mutation testing (StrykerJS"));
  const ciScript = readFileSync(join(root, ".ci/run"), "utf8");

  it("states the area and file floors the runner enforces", async () => {
    const { BREAK_SCORE, FILE_FLOOR } = (await import(join(root, "scripts/mutate/areas.mjs"))) as {
      BREAK_SCORE: number;
      FILE_FLOOR: number;
    };
    expect(paragraph).toContain(`fails under ${BREAK_SCORE} % for an area or ${FILE_FLOOR} % for one of`);
  });

  it("names the commands CI runs, and CI runs them", () => {
    for (const command of ["pnpm mutate --ci", "node scripts/mutate/lua.mjs --ci"]) {
      expect(paragraph).toContain(`\`${command}\``);
      expect(ciScript.split("\n")).toContain(command);
    }
  });

  it("has a committed report for every area, which CI's incremental run starts from", async () => {
    const { AREAS } = (await import(join(root, "scripts/mutate/areas.mjs"))) as {
      AREAS: Record<string, unknown>;
    };
    const missing = Object.keys(AREAS).filter(
      (area) => !existsSync(join(root, `docs/mutation/${area}.json`)),
    );
    expect(missing).toEqual([]);
    expect(existsSync(join(root, "docs/mutation/lua.json"))).toBe(true);
  });
});
