export * from "./admission-store.js";
export * from "./memory-store.js";
export * from "./redis/connect.js";
export * from "./redis/keys.js";
export * from "./redis/redis-store.js";
export * from "./validate.js";
