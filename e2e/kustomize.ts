import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";

// A small Kustomize renderer for the subset infra/k8s uses: `resources` (files and directories with a
// kustomization.yaml), `namespace`, `labels` (metadata only), `patches` (strategic-merge patch files,
// matched by kind and name) and `images` (newName / newTag). Written here because no kustomize binary
// is installed by the project; any other field fails the render loudly rather than being ignored.
// `kubectl kustomize infra/k8s/overlays/<env>` renders the same manifests.

export type Manifest = Record<string, unknown> & {
  kind: string;
  metadata: { name: string } & Record<string, unknown>;
};

type Json = Record<string, unknown>;

const SUPPORTED = new Set(["apiVersion", "kind", "namespace", "labels", "resources", "patches", "images"]);

function readYaml(file: string): Json[] {
  return parseAllDocuments(readFileSync(file, "utf8"))
    .map((document) => document.toJSON() as Json | null)
    .filter((value): value is Json => value !== null);
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Strategic merge as Kubernetes does it for these fields: lists of named objects merge by `name`. */
export function strategicMerge(base: unknown, patch: unknown): unknown {
  if (isObject(base) && isObject(patch)) {
    const merged: Json = { ...base };
    for (const [key, value] of Object.entries(patch)) merged[key] = strategicMerge(base[key], value);
    return merged;
  }
  if (
    Array.isArray(base) &&
    Array.isArray(patch) &&
    patch.every((item) => isObject(item) && "name" in item)
  ) {
    const merged = [...base];
    for (const item of patch as Json[]) {
      const at = merged.findIndex((existing) => isObject(existing) && existing.name === item.name);
      if (at >= 0) merged[at] = strategicMerge(merged[at], item);
      else merged.push(item);
    }
    return merged;
  }
  return patch;
}

function setImages(value: unknown, images: Json[]): unknown {
  if (Array.isArray(value)) return value.map((item) => setImages(item, images));
  if (!isObject(value)) return value;
  const result: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "image" && typeof item === "string") {
      const [name = "", tag] = item.split(":");
      const rule = images.find((image) => image.name === name);
      result[key] = rule ? `${String(rule.newName ?? name)}:${String(rule.newTag ?? tag ?? "latest")}` : item;
    } else result[key] = setImages(item, images);
  }
  return result;
}

/** Renders the kustomization in `dir` (a directory holding kustomization.yaml). */
export function render(dir: string): Manifest[] {
  const kustomization = readYaml(join(dir, "kustomization.yaml"))[0] ?? {};
  const unknown = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unknown.length > 0) throw new Error(`${dir}: unsupported kustomization fields ${unknown.join(", ")}`);
  let manifests: Json[] = ((kustomization.resources as string[] | undefined) ?? []).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? render(path) : readYaml(path);
  });
  for (const { path } of (kustomization.patches as { path: string }[] | undefined) ?? []) {
    for (const patch of readYaml(join(dir, path))) {
      const name = (patch.metadata as Json).name;
      const at = manifests.findIndex((m) => m.kind === patch.kind && (m.metadata as Json).name === name);
      if (at < 0) throw new Error(`${join(dir, path)}: no ${String(patch.kind)} ${String(name)} to patch`);
      manifests[at] = strategicMerge(manifests[at], patch) as Json;
    }
  }
  const images = (kustomization.images as Json[] | undefined) ?? [];
  manifests = manifests.map((manifest) => setImages(manifest, images) as Json);
  const labels: Json = {};
  for (const entry of (kustomization.labels as { pairs: Json }[] | undefined) ?? [])
    Object.assign(labels, entry.pairs);
  const namespace = kustomization.namespace as string | undefined;
  return manifests.map((manifest) => {
    const metadata = { ...(manifest.metadata as Json) };
    if (Object.keys(labels).length > 0) metadata.labels = { ...(metadata.labels as Json), ...labels };
    if (namespace) metadata.namespace = namespace;
    return { ...manifest, metadata } as Manifest;
  });
}

export const overlayDir = (root: string, overlay: string): string =>
  join(root, "infra/k8s/overlays", overlay);
