import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@gw/testing";
import { describe, expect, it } from "vitest";

// docs/grpc.md against the contracts: every rpc of every service in proto/ has its row, so a method
// added to a .proto without a word for the teams that call it fails here.

const root = repoRoot();
const doc = readFileSync(join(root, "docs/grpc.md"), "utf8");

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? protoFiles(join(dir, entry.name))
      : entry.name.endsWith(".proto")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** `Service.Method` for every rpc declared in a service block. */
function rpcs(): { service: string; method: string }[] {
  const found: { service: string; method: string }[] = [];
  for (const file of protoFiles(join(root, "proto"))) {
    const text = readFileSync(file, "utf8");
    for (const block of text.matchAll(/service\s+(\w+)\s*\{([^}]*)\}/g)) {
      for (const rpc of (block[2] ?? "").matchAll(/rpc\s+(\w+)\s*\(/g))
        found.push({ service: block[1] ?? "", method: rpc[1] ?? "" });
    }
  }
  return found;
}

describe("docs/grpc.md", () => {
  const declared = rpcs();

  it("finds the services in proto/", () => {
    expect(new Set(declared.map((rpc) => rpc.service))).toEqual(
      new Set([
        "KeyService",
        "CatalogService",
        "EndpointHealthService",
        "BillingService",
        "GenerationService",
        "BatchService",
      ]),
    );
  });

  it("has a section for every service and a row for every method", () => {
    const described = ({ service, method }: { service: string; method: string }) =>
      doc.includes(service) &&
      (doc.includes(`| \`${method}\``) || doc.includes(`| \`${service}.${method}\``));
    const missing = declared.filter((rpc) => !described(rpc));
    expect(missing).toEqual([]);
  });
});
