import { Hash } from "@smithy/core/serde";
import { SignatureV4 } from "@smithy/signature-v4";
import type { ExchangeContext, ProviderError } from "../core/server.js";

export interface FakeAwsCredential {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

// `AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=a;b, Signature=hex`
// (AWS General Reference, "Signature Version 4": the Authorization header).
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

const MISMATCH =
  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

// SigV4 allows a request's x-amz-date to be at most 15 minutes from the service's clock.
const MAX_SKEW_MS = 15 * 60 * 1000;

const refusal = (code: string, message: string): ProviderError => ({ status: 403, code, message });

/**
 * Checks a request's SigV4 signature the way the service does: the credential must be one this fake
 * was given, the scope's service `bedrock`, and the signature recomputed here (with that credential's
 * secret, over the method, the path as received, the signed headers and the body's SHA-256) must be
 * equal to the one sent. Refusals are the service's own: MissingAuthenticationTokenException,
 * IncompleteSignatureException, UnrecognizedClientException, InvalidSignatureException.
 */
export async function verifySignature(
  ctx: ExchangeContext,
  credentials: readonly FakeAwsCredential[],
  now: Date = new Date(),
): Promise<ProviderError | null> {
  const header = ctx.req.headers.authorization;
  if (header === undefined)
    return refusal("MissingAuthenticationTokenException", "Missing Authentication Token");
  const parts = AUTHORIZATION.exec(header);
  const date = headerText(ctx, "x-amz-date");
  if (!parts || !date)
    return refusal(
      "IncompleteSignatureException",
      `Authorization header requires 'Credential', 'Signature', 'SignedHeaders' and an X-Amz-Date. Authorization=${header.split(" ")[0]}`,
    );
  const [, accessKeyId, , region, service, signedList, signature] = parts as unknown as string[];
  const credential = credentials.find((entry) => entry.accessKeyId === accessKeyId);
  if (!credential)
    return refusal("UnrecognizedClientException", "The security token included in the request is invalid.");
  if (
    credential.sessionToken !== undefined &&
    headerText(ctx, "x-amz-security-token") !== credential.sessionToken
  )
    return refusal("UnrecognizedClientException", "The security token included in the request is invalid.");
  const signingDate = parseAmzDate(date ?? "");
  if (!signingDate)
    return refusal("IncompleteSignatureException", "Date must be in ISO-8601 'basic format'.");
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_SKEW_MS)
    return refusal(
      "InvalidSignatureException",
      `Signature expired: ${date} is now earlier than the allowed window.`,
    );
  if (service !== "bedrock")
    return refusal("InvalidSignatureException", `Credential should be scoped to correct service: 'bedrock'.`);
  const expected = await recompute(ctx, credential, region ?? "", signedList ?? "", signingDate);
  return expected === signature ? null : refusal("InvalidSignatureException", MISMATCH);
}

async function recompute(
  ctx: ExchangeContext,
  credential: FakeAwsCredential,
  region: string,
  signedList: string,
  signingDate: Date,
): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  for (const name of signedList.split(";")) headers[name] = headerText(ctx, name) ?? "";
  const signer = new SignatureV4({
    credentials: credential,
    region,
    service: "bedrock",
    sha256: Hash.bind(null, "sha256"),
  });
  const path = (ctx.req.url ?? "/").split("?")[0] ?? "/";
  const signed = await signer.sign(
    {
      method: ctx.req.method ?? "POST",
      protocol: "http:",
      hostname: headers.host ?? "",
      path,
      query: {},
      headers,
      body: ctx.rawBody,
    },
    { signingDate, signableHeaders: new Set(Object.keys(headers)) },
  );
  const authorization = String(signed.headers.authorization ?? signed.headers.Authorization ?? "");
  return /Signature=([0-9a-f]{64})/.exec(authorization)?.[1];
}

function headerText(ctx: ExchangeContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** `20260101T120000Z` → Date. */
function parseAmzDate(text: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0));
}
