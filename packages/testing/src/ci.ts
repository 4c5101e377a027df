/** CI=true or CI=1 (both mean CI everywhere): nothing may skip for lack of a service. Free of vitest imports for the global setup. */
export function isCI(env: Record<string, string | undefined> = process.env): boolean {
  return env.CI === "true" || env.CI === "1";
}
