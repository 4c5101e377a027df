export * from "./bodies.js";
export * from "./catalogue.js";
export * from "./gateway-error.js";
