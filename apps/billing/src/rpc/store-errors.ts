import { AdmissionInputError } from "@gw/admission-store";
import { GatewayError } from "@gw/errors";

/** Bad input stays INVALID_ARGUMENT; anything else from the store means it is down: UNAVAILABLE. */
export async function withStore<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    if (error instanceof AdmissionInputError) throw new GatewayError("invalid_request", error.message);
    throw new GatewayError("service_unavailable", `${operation} is unavailable`, {
      code: "dependency_unavailable",
      cause: error,
    });
  }
}

export function requireField(name: string, value: string): string {
  if (!value) throw new GatewayError("invalid_request", `${name} is required`);
  return value;
}
