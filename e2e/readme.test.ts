import { existsSync, readFileSync } from "node:fs";
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
