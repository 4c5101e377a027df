import { randomUUID } from "node:crypto";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { GatewayError } from "@gw/errors";
import { parseOrThrow } from "@gw/http";
import { picoToUsdNumber } from "@gw/money";
import type { GrantCreditsResponse } from "@gw/proto/billing/v1/billing";
import type { Request, RequestHandler } from "express";
import { sql } from "kysely";
import type { IdentityContext } from "../context.js";
import { createAccount } from "../operator.js";
import { operatorActor } from "../operators/gate.js";
import { type AccountRow, findAccount, listAccounts } from "../repositories/accounts.js";
import {
  type AdminAccountJson,
  type CreditsJson,
  createAccountBody,
  type GrantedCreditsJson,
  grantCreditsBody,
  IDEMPOTENCY_KEY,
  listAccountsQuery,
} from "./admin-schemas.js";
import { accountCredits, creditsJson } from "./credits.js";
import { decodeAccountCursor, encodeAccountCursor } from "./cursor.js";

// The operator's account routes (POST/GET /api/v1/admin/accounts, POST …/{id}/credits), mounted in
// app.ts behind requireOperator: an operator token only, never an account's key. Each change is
// written to the log as an audit line (who, what, which account): never a secret.

const NEW_ACCOUNT_CREDITS: CreditsJson = { total_credits: 0, total_usage: 0, balance: 0, is_free_tier: true };

function accountJson(row: AccountRow, credits: CreditsJson): AdminAccountJson {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    allowed_providers: row.allowed_providers,
    allowed_models: row.allowed_models,
    credits,
  };
}

/** GET /api/v1/admin/accounts → {data: AdminAccount[], next_cursor}: every account, newest first. */
export function listAccountsRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const query = parseOrThrow(listAccountsQuery, request.query, "query");
    const after = query.cursor === undefined ? undefined : decodeAccountCursor(query.cursor);
    // One extra row tells whether another page exists without a count query.
    const rows = await listAccounts(context.db, { after, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const credits = await accountCredits(
      context.billing,
      page.map((row) => row.id),
    );
    const last = page.at(-1);
    response.json({
      data: page.map((row, index) => accountJson(row, credits[index] ?? NEW_ACCOUNT_CREDITS)),
      next_cursor:
        rows.length > query.limit && last ? encodeAccountCursor({ at: last.position_at, id: last.id }) : null,
    });
  };
}

/**
 * POST /api/v1/admin/accounts → 201 {data: AdminAccount, management_key, management_key_hash}: the same
 * operation as `gw accounts create` (account and first management key in one transaction). The key is
 * shown in this answer only; credits are added with the credits route.
 */
export function createAccountRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const body = parseOrThrow(createAccountBody, request.body);
    await refuseTakenName(context, body.name);
    const created = await createAccount({ db: context.db }, { name: body.name });
    const row = await findAccount(context.db, created.accountId);
    if (!row) throw new Error(`account ${created.accountId} vanished after its creation`);
    audit(context, request, "account.create", { accountId: row.id, name: row.name });
    response.status(201).json({
      data: accountJson(row, NEW_ACCOUNT_CREDITS),
      management_key: created.managementKey,
      management_key_hash: created.managementKeyHash,
    });
  };
}

/**
 * POST /api/v1/admin/accounts/{id}/credits → {data: GrantedCredits}: billing credits the account (the
 * operation of `gw credits add`), 201 when written, 200 when this Idempotency-Key already credited it.
 * Without the header each call is a new credit.
 */
export function grantCreditsRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const accountId = String(request.params.id ?? "");
    const body = parseOrThrow(grantCreditsBody, request.body);
    const idempotencyKey = idempotencyKeyOf(request);
    const account = await findAccount(context.db, accountId);
    if (!account) {
      throw new GatewayError("not_found", "account not found");
    }
    const granted = await grant(context, {
      accountId,
      amountPico: body.amount,
      kind: body.kind,
      // The account is part of the reference: one Idempotency-Key used on two accounts is two credits.
      reference: `operator:${accountId}:${idempotencyKey ?? randomUUID()}`,
    });
    audit(context, request, "account.credit", {
      accountId,
      amountUsd: picoToUsdNumber(body.amount),
      kind: body.kind,
      reason: body.reason,
      entryId: granted.entryId,
      created: granted.created,
      idempotent: idempotencyKey !== undefined,
    });
    const answer: GrantedCreditsJson = {
      data: {
        account_id: accountId,
        entry_id: granted.entryId,
        amount: picoToUsdNumber(body.amount),
        kind: body.kind,
        created: granted.created,
        credits: creditsJson({
          creditsPico: granted.totalCreditsPico,
          usagePico: granted.totalUsagePico,
          isFreeTier: granted.isFreeTier,
        }),
      },
    };
    response.status(granted.created ? 201 : 200).json(answer);
  };
}

/**
 * Two accounts of one name cannot be told apart in the console's list or the audit log: a name already
 * used (letter case aside) is a 400 naming the field. Checked before the insert, not by an index: the
 * accounts written before this rule may share names, and two operators racing on one name is harmless.
 */
async function refuseTakenName(context: IdentityContext, name: string): Promise<void> {
  const taken = await context.db
    .selectFrom("accounts")
    .select("id")
    .where(sql<string>`lower(name)`, "=", name.toLowerCase())
    .executeTakeFirst();
  if (taken) {
    throw new GatewayError(
      "invalid_request",
      `name: an account named "${name}" already exists (${taken.id})`,
      {
        code: "invalid_parameter",
        metadata: { field: "name" },
      },
    );
  }
}

function idempotencyKeyOf(request: Request): string | undefined {
  const header = request.headers["idempotency-key"];
  if (header === undefined) return undefined;
  if (typeof header !== "string" || !IDEMPOTENCY_KEY.test(header)) {
    throw new GatewayError("invalid_request", "Idempotency-Key: expected 1-200 printable ASCII characters", {
      code: "invalid_parameter",
      metadata: { field: "Idempotency-Key" },
    });
  }
  return header;
}

async function grant(
  context: IdentityContext,
  input: { accountId: string; amountPico: bigint; kind: "purchase" | "grant"; reference: string },
): Promise<GrantCreditsResponse> {
  const grantCredits = context.billing.grantCredits;
  if (!grantCredits) {
    throw new GatewayError("service_unavailable", "billing service is unavailable", {
      code: "dependency_unavailable",
    });
  }
  try {
    return await grantCredits.call(context.billing, input);
  } catch (error) {
    // Billing refused the credit itself (e.g. the Idempotency-Key already credited another amount).
    if (isGrpcError(error) && error.code === GrpcStatus.INVALID_ARGUMENT) {
      throw new GatewayError("invalid_request", error.details, { code: "invalid_request" });
    }
    // Whether it was written is unknown: a retry with the same Idempotency-Key is safe.
    throw new GatewayError(
      "service_unavailable",
      "billing service is unavailable; retry with the same Idempotency-Key",
      {
        code: "dependency_unavailable",
        cause: error,
      },
    );
  }
}

function isGrpcError(error: unknown): error is { code: number; details: string } {
  return typeof error === "object" && error !== null && "code" in error && "details" in error;
}

function audit(
  context: IdentityContext,
  request: Request,
  action: string,
  fields: Record<string, unknown>,
): void {
  context.logger.info({ audit: true, actor: operatorActor(request), action, ...fields }, "operator action");
}
