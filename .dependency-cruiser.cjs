// The workspace's dependency rules, checked by `pnpm check` (and so by CI) with dependency-cruiser:
// no file cycles, no app reaching into another app, packages below apps, the edge's folders as
// layers that only import downwards, and the keys app's two modules (identity, catalogue) apart. A violation names the rule; the rule's comment says what to do.

/** apps/edge/src's folders, bottom layer first: each may import only itself and the folders before it. */
const EDGE_LAYERS = [
  "canonical",
  "clients",
  "catalog",
  "translate",
  "providers",
  "planning",
  "usage",
  "admission",
  "payments",
  "middleware",
  "console",
  "pipeline",
  "batches",
  "routes",
];

const EDGE = "^apps/edge/src/";
const TEST_FILE = "\\.test\\.ts$";
const APPS = ["edge", "keys", "billing", "generations", "standalone"];

/**
 * One rule per layer and layer above it, so that a violation's message names both: `translate/ may not
 * import pipeline/` rather than a list of everything above translate/.
 */
const layerRules = EDGE_LAYERS.flatMap((layer, index) =>
  EDGE_LAYERS.slice(index + 1).map((above) => ({
    name: `edge-layer-${layer}-not-${above}`,
    severity: "error",
    comment:
      `${layer}/ may not import ${above}/, a layer above it (the edge's layers, bottom first: ` +
      `${EDGE_LAYERS.join(", ")}). Move the contract or type ${layer}/ needs down into ${layer}/ or a ` +
      `layer below it, or let ${above}/ pass it in.`,
    from: { path: `${EDGE}${layer}/`, pathNot: TEST_FILE },
    to: { path: `${EDGE}${above}/` },
  })),
);

/**
 * apps/keys/src is two modules with a boundary, so the catalogue can leave for an app of its own by a
 * move: identity/ (accounts, keys, wallets, BYOK credentials, operator tokens) and catalog/ (models,
 * endpoints, prices, overrides, imports, aliases). Beside them: db/ (the one schema and its migrations,
 * shared while both live in one database), openapi/ (the document, composed from both), test/ (the
 * harness) and the composition root's files (app.ts, deps.ts, grpc.ts, start.ts, main.ts, …).
 */
const KEYS = "^apps/keys/src/";
const KEYS_FOLDERS = ["identity", "catalog", "db", "openapi", "test"];

const keysRules = [
  {
    name: "keys-catalog-not-identity",
    severity: "error",
    comment:
      "The catalogue (apps/keys/src/catalog/) may not import identity's code: it must be able to become an " +
      "app of its own by a move. What it needs from identity comes through catalog/operators.ts's " +
      "OperatorGate, which app.ts fills with identity's operator check; add to that interface (and let " +
      "app.ts pass it) rather than importing identity/. Tests may use identity to set up accounts.",
    from: { path: `${KEYS}catalog/`, pathNot: TEST_FILE },
    to: { path: `${KEYS}identity/` },
  },
  {
    name: "keys-identity-reads-catalog-only",
    severity: "error",
    comment:
      "identity/ may use the catalogue only through catalog/read.ts (which providers and models exist, to " +
      "check allow-lists and BYOK providers): the one seam to turn into a CatalogService call when the " +
      "catalogue leaves. Add the query you need there instead of importing another catalogue file.",
    from: { path: `${KEYS}identity/`, pathNot: TEST_FILE },
    to: { path: `${KEYS}catalog/`, pathNot: `${KEYS}catalog/read\\.ts$` },
  },
  {
    name: "keys-module-not-root-or-harness",
    severity: "error",
    comment:
      "identity/ and catalog/ may not import the composition root (app.ts, deps.ts, grpc.ts, start.ts, " +
      "main.ts, index.ts, readiness.ts, …), openapi/ or the harness src/test/: those compose the modules. " +
      "Take what you need as a parameter (each module has its own context type: identity/context.ts, " +
      "catalog/context.ts) and let the root pass it in.",
    from: { path: `${KEYS}(identity|catalog)/`, pathNot: TEST_FILE },
    to: { path: `${KEYS}([^/]+\\.ts$|openapi/|test/)` },
  },
  {
    name: "keys-db-not-modules",
    severity: "error",
    comment:
      "apps/keys/src/db/ (schema types and migrations) sits below both modules and may not import them: " +
      "migrations describe the schema as it was the day they were written, never the app's types.",
    from: { path: `${KEYS}db/` },
    to: { path: `${KEYS}(identity|catalog|openapi|test)/` },
  },
  {
    name: "keys-folder-in-a-module",
    severity: "error",
    comment:
      "Every folder of apps/keys/src is one of identity/, catalog/ (the two modules), db/, openapi/ or " +
      "test/. Put the file in the module it belongs to (a new concern gets a folder inside its module).",
    from: { path: `${KEYS}[^/]+/`, pathNot: `${KEYS}(${KEYS_FOLDERS.join("|")})/` },
    to: {},
  },
];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "This file is part of an import cycle. Break it: move what both sides need into a file that " +
        "neither imports back (usually a lower layer), or pass the dependency in.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-app-imports-another-app",
      severity: "error",
      comment:
        "An app may not import another app's code (only apps/standalone, the composition root, wires the " +
        "apps together). Move what both need into a package under packages/, or talk over the app's RPC API.",
      from: { path: "^apps/([^/]+)/", pathNot: "^apps/standalone/" },
      to: {
        path: `^(apps/|@gw/(${APPS.join("|")})($|/))`,
        pathNot: "^(apps/$1/|@gw/$1($|/))",
      },
    },
    {
      name: "no-package-imports-an-app",
      severity: "error",
      comment:
        "Packages sit below the apps and may not import one. Move the code the package needs from the " +
        "app into a package, or let the app pass it in.",
      from: { path: "^packages/" },
      to: { path: `^(apps/|@gw/(${APPS.join("|")})($|/))` },
    },
    {
      name: "no-import-of-bench",
      severity: "error",
      comment: "bench/ sits on top of everything: it may import apps and packages, nothing may import it.",
      from: { pathNot: "^bench/" },
      to: { path: "^bench/" },
    },
    ...layerRules,
    ...keysRules,
    {
      name: "edge-layer-no-root-or-harness",
      severity: "error",
      comment:
        "The edge's layer folders may not import the app's root files (app.ts, server.ts, config.ts, " +
        "connect.ts, main.ts, index.ts, …) or the test harness src/test/: those sit above every layer. " +
        "Move the type the layer needs into the layer (e.g. its own settings type) and let the root pass it in.",
      from: { path: `${EDGE}(${EDGE_LAYERS.join("|")})/`, pathNot: TEST_FILE },
      to: { path: `${EDGE}([^/]+\\.ts$|test/)` },
    },
    {
      name: "edge-folder-in-a-layer",
      severity: "error",
      comment:
        "Every folder of apps/edge/src is a layer from the list in .dependency-cruiser.cjs (or the test " +
        "harness src/test/). Put the file in one of those folders, or add the folder to the list at its place.",
      from: { path: `${EDGE}[^/]+/`, pathNot: `${EDGE}(${EDGE_LAYERS.join("|")}|test)/` },
      to: {},
    },
  ],
  options: {
    // Workspace packages resolve through their package.json to dist/: the import is recorded (so the
    // app/package rules see it), but built output and dependencies are not cruised themselves.
    doNotFollow: { path: ["node_modules", "(^|/)dist/"] },
    // Type-only imports count: a layer that imports a type from above depends on it as much as on a value.
    tsPreCompilationDeps: true,
    // The shared compiler options (nodenext): `./x.js` specifiers resolve to the `./x.ts` sources.
    tsConfig: { fileName: "tsconfig.depcruise.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts", ".json"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
