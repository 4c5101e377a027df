export type { StandaloneConfig } from "./config.js";
export { loadStandaloneConfig } from "./config.js";
export { gatewayOpenApiDocument } from "./openapi/document.js";
export type { GrpcPorts, RunningStandalone } from "./standalone.js";
export { internalPortTaken, startStandalone } from "./standalone.js";
