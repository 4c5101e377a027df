export type { oas31, ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
export * from "./content.js";
export * from "./document.js";
export * from "./errors.js";
export * from "./model-object.js";
export * from "./routes.js";
export * from "./security.js";
export * from "./served.js";
