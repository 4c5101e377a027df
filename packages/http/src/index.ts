export * from "./credential.js";
export * from "./errors.js";
export * from "./json.js";
export * from "./json-depth.js";
export * from "./listen.js";
export * from "./service-auth.js";
export * from "./url-check.js";
export * from "./validate.js";
