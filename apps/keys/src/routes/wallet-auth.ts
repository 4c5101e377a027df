import { GatewayError } from "@gw/errors";
import { DEFAULT_BODY_TIMEOUT_MS } from "@gw/http";
import express, { type RequestHandler } from "express";
import type { KeysContext } from "../deps.js";
import { readProof } from "../wallets/proof.js";
import { signIn } from "../wallets/sign-in.js";

const readText = express.text({ type: () => true, limit: "32kb" });

/**
 * Reads the body as text whatever its content type: a proof that is not JSON must be a 401 naming
 * the reason, like every other sign-in failure, not the JSON parser's 400. A body over the limit is a
 * 413 and one that cannot be read (a bad charset, a broken encoding) a 400: the reader's own errors
 * carry no catalogue code and were rendered as 500s. A body still arriving after `timeoutMs` is a 408
 * and the connection is closed, as in the shared body layer (this route reads before that layer runs;
 * without the bound a body that never completed held the request forever).
 */
export function walletAuthBody(timeoutMs = DEFAULT_BODY_TIMEOUT_MS): RequestHandler {
  return (request, response, next) => {
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      next(error);
    };
    const timer = setTimeout(
      () =>
        finish(
          new GatewayError("request_timeout", "request body did not arrive in time", {
            code: "body_timeout",
            headers: { connection: "close" },
          }),
        ),
      timeoutMs,
    );
    readText(request, response, (error?: unknown) =>
      finish(error === undefined ? undefined : readError(error)),
    );
  };
}

function readError(error: unknown): GatewayError {
  const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
  if (type === "entity.too.large")
    return new GatewayError("request_too_large", "the sign-in body is larger than 32 KiB", {
      code: "body_too_large",
    });
  return new GatewayError("invalid_request", "the sign-in body could not be read", { code: "invalid_body" });
}

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
