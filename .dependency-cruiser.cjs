// The workspace's dependency rules, checked by `pnpm check` (and so by CI) with dependency-cruiser:
// no file cycles, no app reaching into another app, packages below apps and importing only the packages
// listed for them, the folders of the edge, the console, billing and generations as layers that only
// import downwards, and the keys app's two modules (identity, catalogue) apart. A violation names the
// rule; the rule's comment says what to do.

/** apps/edge/src's folders, bottom layer first: each may import only itself and the folders before it. */
const EDGE_LAYERS = [
  "canonical",
  "clients",
  "catalog",
  "media",
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

/**
 * apps/console/src's folders, bottom first. api/ (the typed client hook, errors) and components/ (shared
 * widgets and formatting) are what every screen uses; session/ is who is signed in (sign-in page, stored
 * credential and playground key, what a session may open); pages/ are the screens; app/ (router, layout)
 * puts them together. Each folder may import only itself and the folders before it.
 */
const CONSOLE_LAYERS = ["api", "components", "session", "pages", "app"];
const CONSOLE = "^apps/console/src/";

const consoleLayerRules = CONSOLE_LAYERS.flatMap((layer, index) =>
  CONSOLE_LAYERS.slice(index + 1).map((above) => ({
    name: `console-layer-${layer}-not-${above}`,
    severity: "error",
    comment:
      `The console's ${layer}/ may not import ${above}/, a folder above it (bottom first: ` +
      `${CONSOLE_LAYERS.join(", ")}). Move what ${layer}/ needs down into ${layer}/ or a folder below ` +
      `it (shared widgets and helpers into components/), or let ${above}/ pass it in as a prop.`,
    from: { path: `${CONSOLE}${layer}/` },
    to: { path: `${CONSOLE}${above}/` },
  })),
);

const consoleRules = [
  ...consoleLayerRules,
  {
    name: "console-page-imports-another-page",
    severity: "error",
    comment:
      "A console page may not import another page's folder: each page is one room a newcomer reads alone. " +
      "Move what both pages use into src/components/ (widgets, formatting, pricing) or src/api/, and " +
      "import it from there.",
    from: { path: `${CONSOLE}pages/([^/]+)/` },
    to: { path: `${CONSOLE}pages/`, pathNot: `${CONSOLE}pages/$1/` },
  },
  {
    name: "console-no-import-of-main",
    severity: "error",
    comment:
      "src/main.tsx is the console's entry point (it mounts the router and the session provider): " +
      "nothing imports it. Import what you need from the folder that defines it.",
    from: {},
    to: { path: `${CONSOLE}main\\.tsx$` },
  },
  {
    name: "console-folder-in-a-layer",
    severity: "error",
    comment:
      "Every folder of apps/console/src is one from CONSOLE_LAYERS in .dependency-cruiser.cjs. Put the " +
      "file in one of those folders, or add the folder to the list at its place.",
    from: { path: `${CONSOLE}[^/]+/`, pathNot: `${CONSOLE}(${CONSOLE_LAYERS.join("|")})/` },
    to: {},
  },
  {
    name: "console-imports-only-the-client",
    severity: "error",
    comment:
      "The console talks only to the public API, through @gw/client (its README's rule: anything it does, " +
      "a dashboard backend can do too). Call the API through the typed client instead of importing " +
      "another workspace package.",
    from: { path: "^apps/console/" },
    to: { path: "^(packages/|@gw/)", pathNot: "^(packages/client/|@gw/client($|/))" },
  },
];

/**
 * The control-plane apps' src folders, bottom layer first (derived from their imports: the order in
 * which no folder imports one after it). The root files (app.ts, main.ts, start.ts, grpc.ts, …) sit on
 * top and wire the layers; deps.ts (what the app is given and the context its handlers share) is the one
 * root file the handler layers, routes/ and rpc/, may import. src/test/ is the test harness.
 * apps/keys and apps/standalone get their rules with their restructuring (issue 28).
 */
const CONTROL_PLANE_LAYERS = {
  billing: [
    "time",
    "db",
    "repositories",
    "notifications",
    "operator",
    "payments",
    "admission",
    "consumers",
    "routes",
    "rpc",
  ],
  generations: [
    "db",
    "activity",
    "health",
    "records",
    "repositories",
    "retention",
    "consumers",
    "routes",
    "rpc",
  ],
};
/** The layers that receive the app's context (deps.ts) from the root: its request handlers. */
const HANDLER_LAYERS = ["routes", "rpc"];

function controlPlaneRules(app, layers) {
  const root = `^apps/${app}/src/`;
  const below = layers.filter((layer) => !HANDLER_LAYERS.includes(layer));
  const layerRules = layers.flatMap((layer, index) =>
    layers.slice(index + 1).map((above) => ({
      name: `${app}-layer-${layer}-not-${above}`,
      severity: "error",
      comment:
        `apps/${app}: ${layer}/ may not import ${above}/, a layer above it (bottom first: ` +
        `${layers.join(", ")}). Move what ${layer}/ needs down into ${layer}/ or a layer below it, or ` +
        `let ${above}/ pass it in.`,
      from: { path: `${root}${layer}/`, pathNot: TEST_FILE },
      to: { path: `${root}${above}/` },
    })),
  );
  return [
    ...layerRules,
    {
      name: `${app}-layer-no-root-or-harness`,
      severity: "error",
      comment:
        `apps/${app}'s layer folders may not import the app's root files (app.ts, main.ts, start.ts, ` +
        `config.ts, grpc.ts, …) or the test harness src/test/: those sit above every layer. Move the type ` +
        `the layer needs into the layer and let the root pass it in (routes/ and rpc/ may import deps.ts).`,
      from: { path: `${root}(${layers.join("|")})/`, pathNot: TEST_FILE },
      to: { path: `${root}([^/]+\\.ts$|test/)`, pathNot: `${root}deps\\.ts$` },
    },
    {
      name: `${app}-deps-only-in-handlers`,
      severity: "error",
      comment:
        `apps/${app}/src/deps.ts builds the context the handlers share (and imports the layers to do ` +
        `it), so only ${HANDLER_LAYERS.join("/ and ")}/ may import it. A lower layer takes what it needs ` +
        `as parameters instead.`,
      from: { path: `${root}(${below.join("|")})/`, pathNot: TEST_FILE },
      to: { path: `${root}deps\\.ts$` },
    },
    {
      name: `${app}-folder-in-a-layer`,
      severity: "error",
      comment:
        `Every folder of apps/${app}/src is a layer from CONTROL_PLANE_LAYERS.${app} in ` +
        `.dependency-cruiser.cjs (or the test harness src/test/). Put the file in one of those folders, ` +
        `or add the folder to the list at its place (below everything it imports).`,
      from: { path: `${root}[^/]+/`, pathNot: `${root}(${layers.join("|")}|test)/` },
      to: {},
    },
  ];
}

/**
 * Which workspace packages each package's code may import: what the code imports today, and no more
 * (the graph has no cycle: leaves first, each entry lists only entries above it). `tests` are the extra
 * packages its *.test.ts files may import. A package missing from this list may import no other
 * package (rule package-in-the-import-map); no package may import an app (no-package-imports-an-app).
 */
const PACKAGE_IMPORTS = {
  // Leaves: one concept each, no other @gw package.
  errors: { imports: [] },
  money: { imports: [] },
  config: { imports: [] },
  logger: { imports: [] },
  telemetry: { imports: [] },
  proto: { imports: [] },
  db: { imports: [] },
  client: { imports: [] },
  openapi: { imports: [] },
  x402: { imports: [] },
  "fake-providers": { imports: [] },
  "admission-store": { imports: [], tests: ["testing"] },
  // Built on the leaves.
  events: { imports: ["money", "proto"] },
  catalog: { imports: ["money", "proto"] },
  metrics: { imports: ["config"] },
  http: { imports: ["errors"], tests: ["logger"] },
  testing: { imports: ["db"] },
  rpc: { imports: ["config", "errors", "metrics", "telemetry"], tests: ["proto"] },
  kafka: { imports: ["events", "logger", "metrics", "telemetry"], tests: ["testing"] },
  outbox: { imports: ["db", "events", "kafka", "logger", "metrics", "telemetry"], tests: ["testing"] },
  auth: { imports: ["errors", "events", "metrics", "proto", "rpc"] },
  // The control-plane skeleton: composes the plumbing packages into one way to build an app.
  service: {
    imports: ["auth", "config", "db", "events", "http", "kafka", "logger", "metrics", "rpc", "telemetry"],
  },
};

/** `packages/x/…` (a relative or resolved path) or `@gw/x` (a specifier) for any of `names`. */
const packagePath = (names) => `^(packages/(${names.join("|")})/|@gw/(${names.join("|")})($|/))`;

const packageRules = [
  ...Object.entries(PACKAGE_IMPORTS).flatMap(([name, { imports, tests = [] }]) => {
    const rule = (suffix, from, mayImport, what) => ({
      name: `package-${name}-imports${suffix}`,
      severity: "error",
      comment:
        `${what} may import ${mayImport.length > 0 ? mayImport.join(", ") : "no other @gw package"} ` +
        `(PACKAGE_IMPORTS in .dependency-cruiser.cjs; the package's README says the same). Pass the ` +
        `dependency in from the app instead, or move the code to the package that may import it; widen ` +
        `the list only if the package really is about both concepts, and never into a cycle.`,
      from,
      to: { path: "^(packages/|@gw/)", pathNot: packagePath([name, ...mayImport]) },
    });
    if (tests.length === 0) return [rule("", { path: `^packages/${name}/` }, imports, `@gw/${name}`)];
    return [
      rule("", { path: `^packages/${name}/`, pathNot: TEST_FILE }, imports, `@gw/${name}`),
      rule(
        "-in-tests",
        { path: `^packages/${name}/.*${TEST_FILE}` },
        [...imports, ...tests],
        `@gw/${name}'s tests`,
      ),
    ];
  }),
  {
    name: "package-in-the-import-map",
    severity: "error",
    comment:
      "This package is not in PACKAGE_IMPORTS in .dependency-cruiser.cjs, so it may import no other " +
      "package. Add it there with the packages it may import (and say the same in its README).",
    from: { path: "^packages/([^/]+)/", pathNot: packagePath(Object.keys(PACKAGE_IMPORTS)) },
    to: { path: "^(packages/|@gw/)", pathNot: "^(packages/$1/|@gw/$1($|/))" },
  },
];

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
    ...consoleRules,
    ...Object.entries(CONTROL_PLANE_LAYERS).flatMap(([app, layers]) => controlPlaneRules(app, layers)),
    ...packageRules,
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
