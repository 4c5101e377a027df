export * from "./connect.js";
export * from "./embedded.js";
export * from "./migrate.js";
