/**
 * "Sign in with wallet": a SIWE (EIP-4361 / CAIP-122) message signed by an EIP-1193 browser wallet with
 * `personal_sign`, exchanged at `POST /v1/x402/auth` for the wallet's JWT. The gateway checks that the
 * message's domain and URI are its own public URL (the console is served by it, so the page's origin), that
 * Issued At is within 5 minutes, and that the nonce (8–128 letters and digits, chosen here) is new.
 */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

export function browserWallet(): Eip1193Provider | undefined {
  return typeof window !== "undefined" ? window.ethereum : undefined;
}

export interface SiweInput {
  /** `host[:port]` of the page. */
  domain: string;
  /** The page's origin. */
  uri: string;
  address: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
}

export const SIGN_IN_STATEMENT = "Sign in to the Model Gateway console.";

/**
 * The message text, laid out exactly as EIP-4361 (and viem's createSiweMessage) writes it; the server
 * parses the fields back out of the signed text, so the text is the proof.
 */
export function siweMessage(input: SiweInput): string {
  return [
    `${input.domain} wants you to sign in with your Ethereum account:`,
    input.address,
    "",
    SIGN_IN_STATEMENT,
    "",
    `URI: ${input.uri}`,
    "Version: 1",
    `Chain ID: ${input.chainId}`,
    `Nonce: ${input.nonce}`,
    `Issued At: ${input.issuedAt.toISOString()}`,
  ].join("\n");
}

/** 16 random bytes as 32 hex characters: within the server's 8–128 alphanumerics, single-use. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `0x2105` → 8453; the wallet's answer to `eth_chainId`. */
export function parseChainId(value: unknown): number {
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return Number.parseInt(value, 16);
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw new Error("The wallet did not say which chain it is on.");
}

/** The UTF-8 text as the `0x…` hex `personal_sign` takes (wallets also accept text; hex is unambiguous). */
export function toHexUtf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export interface SignedMessage {
  message: string;
  signature: string;
}

/** Asks the wallet for an account and a signature of the sign-in message. */
export async function signInMessage(wallet: Eip1193Provider, location: Location): Promise<SignedMessage> {
  const accounts = await wallet.request({ method: "eth_requestAccounts" });
  const address = Array.isArray(accounts) && typeof accounts[0] === "string" ? accounts[0] : undefined;
  if (!address) throw new Error("The wallet shared no account.");
  const chainId = parseChainId(await wallet.request({ method: "eth_chainId" }));
  const message = siweMessage({
    domain: location.host,
    uri: location.origin,
    address,
    chainId,
    nonce: newNonce(),
    issuedAt: new Date(),
  });
  const signature = await wallet.request({ method: "personal_sign", params: [toHexUtf8(message), address] });
  if (typeof signature !== "string") throw new Error("The wallet returned no signature.");
  return { message, signature };
}

/** A wallet's refusal (EIP-1193 code 4001) or failure, in words. */
export function walletErrorMessage(thrown: unknown): string {
  const record = typeof thrown === "object" && thrown !== null ? (thrown as Record<string, unknown>) : {};
  if (record.code === 4001) return "The request was declined in the wallet.";
  if (typeof record.message === "string" && record.message) return `The wallet failed: ${record.message}`;
  return "The wallet failed.";
}
