export * from "./bodies.js";
export * from "./catalogue.js";
export * from "./codes.js";
export * from "./gateway-error.js";
