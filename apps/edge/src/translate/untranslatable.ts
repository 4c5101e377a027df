import { GatewayError } from "@gw/errors";

/**
 * A request the target wire format cannot express. Adapters turn it into a 400 that names what and
 * why (issue: never drop content silently); sampling parameters are not refused, they are dropped.
 */
export class UntranslatableError extends Error {
  constructor(
    /** The field or part named, e.g. `context_management` or `messages[0].content[1] (type document)`. */
    readonly what: string,
    why: string,
  ) {
    super(`${what} cannot be sent to this model: ${why}`);
    this.name = "UntranslatableError";
  }
}

export function untranslatable(what: string, why: string): never {
  throw new UntranslatableError(what, why);
}

/** Runs a client-side translation; what cannot be translated is the client's 400, never a 500. */
export function translating<T>(translate: () => T): T {
  try {
    return translate();
  } catch (error) {
    if (error instanceof UntranslatableError)
      throw new GatewayError("invalid_request", error.message, { code: "untranslatable_request" });
    throw error;
  }
}
