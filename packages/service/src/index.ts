export * from "./config.js";
export * from "./deps.js";
export * from "./grpc.js";
export * from "./http.js";
export * from "./process.js";
export * from "./readiness.js";
export * from "./start.js";
