export * from "./connect.js";
export * from "./embedded.js";
export * from "./migrate.js";
export * from "./migrate-command.js";
export * from "./prepared.js";
