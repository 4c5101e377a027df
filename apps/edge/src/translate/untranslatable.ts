/**
 * A request the target wire format cannot express. Adapters turn it into a 400 that names what and
 * why (issue: never drop content silently); sampling parameters are not refused, they are dropped.
 */
export class UntranslatableError extends Error {
  constructor(what: string, why: string) {
    super(`${what} cannot be sent to this model: ${why}`);
    this.name = "UntranslatableError";
  }
}

export function untranslatable(what: string, why: string): never {
  throw new UntranslatableError(what, why);
}
