/** CI=true (or 1): nothing may skip for lack of a service. Kept free of vitest imports for the global setup. */
export function isCI(env: Record<string, string | undefined> = process.env): boolean {
  return env.CI === "true" || env.CI === "1";
}
