export type { StandaloneConfig } from "./config.js";
export { loadStandaloneConfig } from "./config.js";
export type { RunningStandalone } from "./standalone.js";
export { startStandalone } from "./standalone.js";
