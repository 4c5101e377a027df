import { z } from "zod";

/**
 * Config is parsed once at start-up from environment variables by zod fragments, one per concern.
 * A bad value stops the process with a message that names the variable, never a stack trace later.
 */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

let recording: Set<string> | undefined;

/**
 * The variable names every `loadConfig` call made while `load` ran declared, read or not (an unset
 * optional variable never shows in the parsed result). For the test that holds the README's
 * configuration table to the apps' real configuration; `load` may throw.
 */
export function declaredVariables(load: () => unknown): Set<string> {
  const names = new Set<string>();
  const previous = recording;
  recording = names;
  try {
    load();
  } catch {
    // A missing required variable still declared every name before the parse failed.
  } finally {
    recording = previous;
  }
  return names;
}

export function loadConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  env: Env = process.env,
): z.infer<z.ZodObject<Shape>> {
  for (const name of Object.keys(shape)) recording?.add(name);
  // An empty variable means "not set" (as in `FOO= command`), never an empty value.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = z.object(shape).safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message}`),
  );
}
