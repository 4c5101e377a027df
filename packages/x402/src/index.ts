export * from "./chain/evm-authorization.js";
export * from "./errors.js";
export * from "./http-facilitator.js";
export * from "./local-check/index.js";
export * from "./local-facilitator.js";
export * from "./types.js";
