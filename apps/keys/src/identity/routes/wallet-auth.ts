import { GatewayError } from "@gw/errors";
import { DEFAULT_BODY_TIMEOUT_MS, forwardedClientAddress, textBody } from "@gw/http";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { readProof } from "../wallets/proof.js";
import { signIn } from "../wallets/sign-in.js";

/**
 * Reads the body as text whatever its content type: a proof that is not JSON must be a 401 naming
 * the reason, like every other sign-in failure, not the JSON parser's 400. It is the shared body
 * layer's text mode, so its bounds and errors are every route's: over 32 KiB → 413, unreadable → 400,
 * still arriving after `timeoutMs` → 408 (this route reads before the JSON layer runs).
 */
export function walletAuthBody(timeoutMs = DEFAULT_BODY_TIMEOUT_MS): RequestHandler {
  return textBody({ limit: "32kb", timeoutMs });
}

/**
 * POST /v1/x402/auth → 200 {jwt, tenant_id, key_id, account_id, expires_at}; every proof failure a 401,
 * a new account over the creation limits a 429 with Retry-After (counted per the client address the
 * edge forwards, see CLIENT_ADDRESS_HTTP_HEADER).
 */
export function walletAuthRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    if (!context.walletAuth) {
      throw new GatewayError("service_unavailable", "wallet sign-in is not configured on this gateway", {
        code: "wallet_auth_not_configured",
      });
    }
    const body = typeof request.body === "string" ? request.body : "";
    const proof = readProof(request.get("sign-in-with-x"), body);
    const clientAddress = forwardedClientAddress(request);
    const { created, ...result } = await signIn(
      context.db,
      context.walletAuth,
      proof,
      new Date(),
      clientAddress,
    );
    context.logger.info(
      {
        accountId: result.tenant_id,
        wallet: result.account_id,
        keyHash: result.key_id,
        created,
        clientAddress,
      },
      created ? "wallet account created" : "wallet signed in",
    );
    response.json(result);
  };
}
