export * from "./client.js";
export * from "./grpc-service-auth.js";
export * from "./server.js";
export * from "./service-auth.js";
export * from "./service-keys.js";
export * from "./service-tokens.js";
export * from "./typed-client.js";
