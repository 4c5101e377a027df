export * from "./client.js";
export * from "./server.js";
