import { readFileSync } from "node:fs";

/** Where the committed document lives: the package's root, beside dist/ (shipped with the package). */
export const OPENAPI_JSON_URL = new URL("../openapi.json", import.meta.url);

/** The committed document as text, read once by the process that serves it. */
export function readOpenApiJson(): string {
  return readFileSync(OPENAPI_JSON_URL, "utf8");
}
