export * from "./batch.js";
export * from "./bus.js";
export * from "./envelope.js";
export * from "./ids.js";
export * from "./in-process-bus.js";
export * from "./key-change-event.js";
export * from "./payment-event.js";
export * from "./usage-event.js";
