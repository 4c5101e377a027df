/** A JSON-RPC 2.0 method table served over HTTP by the testnet (one call per request; no batches). */
export type RpcMethods = (method: string, params: unknown[]) => Promise<unknown>;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

interface RpcCall {
  id: unknown;
  method: string;
  params: unknown[];
}

function parseCall(body: unknown): RpcCall | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const call = body as Record<string, unknown>;
  if (typeof call.method !== "string") return undefined;
  const params = call.params ?? [];
  if (!Array.isArray(params)) return undefined;
  return { id: call.id ?? null, method: call.method, params };
}

/** Answers one JSON-RPC call; failures become JSON-RPC errors, never HTTP errors. */
export async function answerRpc(methods: RpcMethods, body: unknown): Promise<Record<string, unknown>> {
  const call = parseCall(body);
  if (!call) return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } };
  try {
    return { jsonrpc: "2.0", id: call.id, result: await methods(call.method, call.params) };
  } catch (error) {
    const code = error instanceof RpcError ? error.code : rpcCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    return { jsonrpc: "2.0", id: call.id, error: { code, message } };
  }
}

function rpcCodeOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : -32603;
}

/** bigint → decimal-safe JSON: JSON.stringify cannot write bigints. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
}
