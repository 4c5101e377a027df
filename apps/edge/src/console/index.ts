export { CONSOLE_CSP } from "./headers.js";
export { defaultConsoleDir } from "./locate.js";
export { CONSOLE_PATH, type ConsoleSettings, mountConsole } from "./serve.js";
