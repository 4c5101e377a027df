export * from "./credentials.js";
export * from "./middleware.js";
export * from "./principal.js";
export * from "./resolver.js";
export * from "./wallet-config.js";
export * from "./wallet-token.js";
