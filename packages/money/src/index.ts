export * from "./charge.js";
export * from "./pico.js";
