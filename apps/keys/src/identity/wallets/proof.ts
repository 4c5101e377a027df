import { z } from "zod";
import { siwxError } from "./failures.js";
import { formatSiwxMessage, parseSiwxMessage, type SiwxFields } from "./siwx-message.js";

/** A sign-in proof, whichever form it came in: the signed text, its signature and the fields in it. */
export interface SiwxProof {
  message: string;
  signature: string;
  fields: SiwxFields;
}

const STANDARD_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const URL_BASE64 = /^[A-Za-z0-9_-]+={0,2}$/;

// One line of the signed text each: a newline would let the fields say something other than the text.
const line = z
  .string()
  .min(1)
  .max(2_048)
  .regex(/^[^\n\r]*$/);

export const textProof = z.object({
  message: z.string().min(1).max(16_384),
  signature: z.string().min(1).max(1_024),
});

/** x402's SIWx payload (`sign-in-with-x` extension, CAIP-122 fields plus the signature). */
export const structuredProof = z.object({
  domain: line,
  address: line,
  statement: line.optional(),
  uri: line,
  version: line,
  chainId: z.string().regex(/^(eip155|solana):[-_a-zA-Z0-9]{1,32}$/),
  type: z.enum(["eip191", "ed25519"]).optional(),
  signatureScheme: z.string().optional(),
  nonce: line,
  issuedAt: line,
  expirationTime: line.optional(),
  notBefore: line.optional(),
  requestId: line.optional(),
  resources: z.array(line).max(64).optional(),
  signature: z.string().min(1).max(1_024),
});

const SIGNATURE_TYPES = { eip155: "eip191", solana: "ed25519" } as const;

/**
 * Reads the proof from the `SIGN-IN-WITH-X` header (base64 JSON: `{message, signature}` or x402's
 * structured payload) or, without the header, from the JSON body.
 */
export function readProof(header: string | undefined, body: string): SiwxProof {
  if (header !== undefined) return fromJson(decodeHeader(header.trim()), "invalid_siwx_header");
  if (body.trim() === "")
    throw siwxError("missing_siwx_proof", "send the SIGN-IN-WITH-X header or a JSON body");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw siwxError("invalid_siwx_body", "the body is not JSON");
  }
  return fromJson(parsed, "invalid_siwx_body");
}

function decodeHeader(header: string): unknown {
  if (!STANDARD_BASE64.test(header) && !URL_BASE64.test(header))
    throw siwxError("invalid_siwx_header", "SIGN-IN-WITH-X is not base64");
  const text = Buffer.from(header, STANDARD_BASE64.test(header) ? "base64" : "base64url").toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw siwxError("invalid_siwx_header", "SIGN-IN-WITH-X is not base64 of JSON");
  }
}

function fromJson(value: unknown, reason: "invalid_siwx_header" | "invalid_siwx_body"): SiwxProof {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw siwxError(reason, "the proof is not a JSON object");
  if ("message" in value) {
    const text = textProof.safeParse(value);
    if (!text.success) throw siwxError("invalid_siwx_payload", "message and signature must be strings");
    return { ...text.data, fields: parseSiwxMessage(text.data.message) };
  }
  const structured = structuredProof.safeParse(value);
  if (!structured.success)
    throw siwxError("invalid_siwx_payload", `the SIWx payload is invalid (${issuePath(structured.error)})`);
  const { chainId, type, signature, signatureScheme: _hint, ...rest } = structured.data;
  const [namespace, reference] = chainId.split(":") as ["eip155" | "solana", string];
  if (type !== undefined && type !== SIGNATURE_TYPES[namespace])
    throw siwxError("invalid_siwx_payload", `type ${type} does not match chain ${chainId}`);
  const fields: SiwxFields = { ...rest, namespace, chainId: reference };
  return { message: formatSiwxMessage(fields), signature, fields };
}

function issuePath(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "payload"}: ${issue.message}` : "payload";
}
