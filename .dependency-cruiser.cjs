// The workspace's dependency rules, checked by `pnpm check` (and so by CI) with dependency-cruiser:
// no file cycles, no app reaching into another app, packages below apps, and the edge's folders as
// layers that only import downwards. A violation names the rule; the rule's comment says what to do.

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
const STANDALONE = "^apps/standalone/src/";
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
      name: "standalone-cli-own-room",
      severity: "error",
      comment:
        "apps/standalone/src/cli/ is the operator CLI's room: the embedded default's composition never " +
        "imports it. Move what both need out of cli/ (as data-dir.ts and databases.ts are).",
      from: { path: STANDALONE, pathNot: `${STANDALONE}cli/` },
      to: { path: `${STANDALONE}cli/` },
    },
    {
      name: "standalone-cli-not-the-server",
      severity: "error",
      comment:
        "The operator CLI shares only the data directory and the database connections with the embedded " +
        "default (data-dir.ts, databases.ts); it never starts or imports the server's composition. Put a " +
        "CLI-only helper in cli/, or move what both need into one of those shared files.",
      from: { path: `${STANDALONE}cli/` },
      to: { path: STANDALONE, pathNot: `${STANDALONE}(cli/|data-dir\\.ts$|databases\\.ts$)` },
    },
    {
      name: "no-import-of-e2e",
      severity: "error",
      comment:
        "e2e/ (the whole-system suites) sits on top of everything: it may import apps and packages, nothing " +
        "may import it. Move what another test needs from e2e/ into @gw/testing.",
      from: { pathNot: "^e2e/" },
      to: { path: "^(e2e/|@gw/e2e($|/))" },
    },
    {
      name: "no-import-of-bench",
      severity: "error",
      comment: "bench/ sits on top of everything: it may import apps and packages, nothing may import it.",
      from: { pathNot: "^bench/" },
      to: { path: "^bench/" },
    },
    ...layerRules,
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
