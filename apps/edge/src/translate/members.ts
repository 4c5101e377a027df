import { untranslatable } from "./untranslatable.js";

/**
 * Refuses the first member of `holder` that is not in `known`, naming its path (`messages[0].foo`):
 * on the translated path a nested member the gateway has no place for is never dropped in silence
 * (issue 12). A member set to null counts as absent (clients echo `refusal: null`, `citations: null`).
 * Anything that is not an object is left to the caller's own checks.
 */
export function refuseUnknownMembers(holder: unknown, known: ReadonlySet<string>, path: string): void {
  if (typeof holder !== "object" || holder === null || Array.isArray(holder)) return;
  for (const [name, value] of Object.entries(holder))
    if (value !== null && value !== undefined && !known.has(name))
      untranslatable(`${path}.${name}`, "the gateway has no translation for it (see the field table)");
}
