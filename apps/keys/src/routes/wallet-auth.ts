import { GatewayError } from "@gw/errors";
import express, { type RequestHandler } from "express";
import type { KeysContext } from "../deps.js";
import { readProof } from "../wallets/proof.js";
import { signIn } from "../wallets/sign-in.js";

const readText = express.text({ type: () => true, limit: "32kb" });

/**
 * Reads the body as text whatever its content type: a proof that is not JSON must be a 401 naming
 * the reason, like every other sign-in failure, not the JSON parser's 400. A body over the limit is a
 * 413 and one that cannot be read (a bad charset, a broken encoding) a 400: the reader's own errors
 * carry no catalogue code and were rendered as 500s.
 */
export const walletAuthBody: RequestHandler = (request, response, next) => {
  readText(request, response, (error?: unknown) => {
    if (error === undefined) return next();
    const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
    if (type === "entity.too.large")
      return next(
        new GatewayError("request_too_large", "the sign-in body is larger than 32 KiB", {
          code: "body_too_large",
        }),
      );
    next(new GatewayError("invalid_request", "the sign-in body could not be read", { code: "invalid_body" }));
  });
};

/** POST /v1/x402/auth → 200 {jwt, tenant_id, key_id, account_id, expires_at}; every failure a 401. */
export function walletAuthRoute(context: KeysContext): RequestHandler {
  return async (request, response) => {
    if (!context.walletAuth) {
      throw new GatewayError("service_unavailable", "wallet sign-in is not configured on this gateway", {
        code: "wallet_auth_not_configured",
      });
    }
    const body = typeof request.body === "string" ? request.body : "";
    const proof = readProof(request.get("sign-in-with-x"), body);
    const { created, ...result } = await signIn(context.db, context.walletAuth, proof);
    context.logger.info(
      { accountId: result.tenant_id, wallet: result.account_id, keyHash: result.key_id, created },
      created ? "wallet account created" : "wallet signed in",
    );
    response.json(result);
  };
}
