import { siwxError } from "./failures.js";

export type WalletNamespace = "eip155" | "solana";

/** The fields of a CAIP-122 sign-in message (SIWE for EVM, SIWS for Solana), as written in the text. */
export interface SiwxFields {
  namespace: WalletNamespace;
  domain: string;
  address: string;
  statement?: string | undefined;
  uri: string;
  version: string;
  /** EVM: the numeric chain id; Solana: the CAIP-2 reference (genesis hash) or a cluster name. */
  chainId: string;
  nonce: string;
  issuedAt: string;
  expirationTime?: string | undefined;
  notBefore?: string | undefined;
  requestId?: string | undefined;
  resources?: string[] | undefined;
}

const HEADER =
  /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)?(\S+) wants you to sign in with your (Ethereum|Solana) account:$/;
const NAMESPACES: Record<string, WalletNamespace> = { Ethereum: "eip155", Solana: "solana" };
const ACCOUNT_WORDS: Record<WalletNamespace, string> = { eip155: "Ethereum", solana: "Solana" };

/** The tagged lines after the statement, in the order EIP-4361 fixes; the first five are required. */
const TAGS = [
  ["URI", "uri"],
  ["Version", "version"],
  ["Chain ID", "chainId"],
  ["Nonce", "nonce"],
  ["Issued At", "issuedAt"],
  ["Expiration Time", "expirationTime"],
  ["Not Before", "notBefore"],
  ["Request ID", "requestId"],
] as const;
const REQUIRED_TAGS = 5;

type TaggedField = (typeof TAGS)[number][1];

/**
 * Parses the signed text strictly (fields in the fixed order, nothing unknown), so what is checked is
 * exactly what was signed. Accepts the statement-less layouts of both SIWE (two blank lines, as viem
 * and x402 write it) and SIWS (one blank line, as x402 and the wallet standard write it).
 */
export function parseSiwxMessage(text: string): SiwxFields {
  const lines = text.split("\n");
  const header = HEADER.exec(lines[0] ?? "");
  const address = lines[1];
  if (!header?.[1] || !header[2] || !address || lines[2] !== "") throw malformed("the header lines");
  const namespace = NAMESPACES[header[2]] ?? "eip155";
  let index = 3;
  let statement: string | undefined;
  if (lines[index] === "") index++;
  else if (!lines[index]?.startsWith("URI: ")) {
    statement = lines[index];
    if (lines[index + 1] !== "") throw malformed("the statement");
    index += 2;
  }
  const tagged: Partial<Record<TaggedField, string>> = {};
  for (const [position, [tag, field]] of TAGS.entries()) {
    const line = lines[index];
    if (line?.startsWith(`${tag}: `)) {
      tagged[field] = line.slice(tag.length + 2);
      index++;
    } else if (position < REQUIRED_TAGS) throw malformed(`the ${tag} line`);
  }
  let resources: string[] | undefined;
  if (lines[index] === "Resources:") {
    resources = [];
    for (index++; lines[index]?.startsWith("- "); index++) resources.push(lines[index]?.slice(2) ?? "");
  }
  if (index !== lines.length) throw malformed(`line ${index + 1}`);
  return {
    namespace,
    domain: header[1],
    address,
    statement,
    uri: tagged.uri ?? "",
    version: tagged.version ?? "",
    chainId: tagged.chainId ?? "",
    nonce: tagged.nonce ?? "",
    issuedAt: tagged.issuedAt ?? "",
    expirationTime: tagged.expirationTime,
    notBefore: tagged.notBefore,
    requestId: tagged.requestId,
    resources,
  };
}

/**
 * The text a wallet signs for these fields: byte-identical to viem's `createSiweMessage` (and so to
 * x402's `formatSIWEMessage`) for EVM, and to x402's `formatSIWSMessage` for Solana. Used for x402's
 * structured proof, which sends the fields rather than the text.
 */
export function formatSiwxMessage(fields: SiwxFields): string {
  const lines = [
    `${fields.domain} wants you to sign in with your ${ACCOUNT_WORDS[fields.namespace]} account:`,
    fields.address,
    "",
  ];
  if (fields.statement) lines.push(fields.statement, "");
  else if (fields.namespace === "eip155") lines.push("");
  for (const [tag, field] of TAGS) {
    const value = fields[field];
    if (value) lines.push(`${tag}: ${value}`);
  }
  if (hasResources(fields))
    lines.push("Resources:", ...(fields.resources ?? []).map((resource) => `- ${resource}`));
  return lines.join("\n");
}

/**
 * Whether the text has a `Resources:` section. SIWE writers (viem's createSiweMessage, the siwe
 * library x402's formatSIWEMessage uses) write it for any list, even an empty one; x402's
 * formatSIWSMessage writes it only for a non-empty list. A structured proof with `resources: []`
 * must be rebuilt as its wallet signed it.
 */
function hasResources(fields: SiwxFields): boolean {
  if (fields.resources === undefined) return false;
  return fields.namespace === "eip155" || fields.resources.length > 0;
}

function malformed(where: string) {
  return siwxError("invalid_siwx_message", `the message is not a sign-in message (${where})`);
}
