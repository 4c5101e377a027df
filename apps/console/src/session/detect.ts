import { createGatewayClient } from "@gw/client";
import { describeProblem, problemFromNetworkError, problemFromResponse } from "../api/errors";
import type { Session } from "./session";

export type Detection = { ok: true; session: Session } | { ok: false; message: string };

export const API_KEY_MESSAGE = "This is an API key; sign in with a management key.";
export const UNKNOWN_KEY_MESSAGE =
  "This key was not recognised: it is unknown, disabled or expired. Check it and try again.";

/**
 * What a pasted credential is, asked of the public API itself: `GET /api/v1/keys` answering 200 means a
 * management key (an account), `GET /api/v1/admin/catalog` answering 200 means the operator's token. A
 * credential can be both (an operator token never has an account: then only the operator pages show).
 */
export async function detectCredential(credential: string, baseUrl: string): Promise<Detection> {
  const client = createGatewayClient({ baseUrl, key: credential });
  try {
    const [keys, admin] = await Promise.all([
      client.GET("/api/v1/keys", { params: { query: { page_size: 1 } } }),
      client.GET("/api/v1/admin/catalog"),
    ]);
    return classify(credential, { response: keys.response, error: keys.error }, admin.response.status);
  } catch (cause) {
    return { ok: false, message: describeProblem(problemFromNetworkError(cause)) };
  }
}

/** The decision from the two answers (pure, so it is unit-tested). */
export function classify(
  credential: string,
  keys: { response: Response; error: unknown },
  adminStatus: number,
): Detection {
  const isOperator = adminStatus === 200;
  const { status, headers } = keys.response;
  if (status === 200)
    return { ok: true, session: { credential, kind: "management", hasAccount: true, isOperator } };
  if (isOperator)
    return { ok: true, session: { credential, kind: "operator", hasAccount: false, isOperator } };
  const problem = problemFromResponse(status, headers, keys.error);
  if (problem.reason === "management_key_required") return { ok: false, message: API_KEY_MESSAGE };
  if (status === 401) return { ok: false, message: UNKNOWN_KEY_MESSAGE };
  return { ok: false, message: describeProblem(problem) };
}
