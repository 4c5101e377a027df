import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OPENAPI_JSON_URL } from "@gw/openapi";
import { gatewayOpenApiDocument, renderOpenApiJson } from "./document.js";

// `pnpm openapi`: regenerates packages/openapi/openapi.json from the apps' zod schemas. A test fails
// while the committed file differs from what this writes.
writeFileSync(OPENAPI_JSON_URL, renderOpenApiJson(gatewayOpenApiDocument()));
process.stdout.write(`wrote ${fileURLToPath(OPENAPI_JSON_URL)}\n`);
