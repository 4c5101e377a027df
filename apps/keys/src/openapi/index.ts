export { keysOpenApiPaths } from "./paths.js";
