import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Facilitator, Network, PaymentPayload, PaymentRequirements } from "../types.js";
import { answerRpc, type RpcMethods, toJson } from "./json-rpc.js";

const MAX_BODY_BYTES = 1024 * 1024;

export interface FacilitatorServerOptions {
  facilitator: Facilitator;
  /** JSON-RPC endpoints served at /rpc/<name> (e.g. "evm", "solana"). */
  rpc?: Record<string, RpcMethods>;
  /** Balance reads served at GET /balance?network=&owner=. */
  balanceOf?: (network: Network, owner: string) => Promise<bigint>;
  /** Default 127.0.0.1 (loopback only) and a free port. */
  host?: string;
  port?: number;
}

export interface FacilitatorServer {
  /** Base URL of the facilitator API (`${url}/verify`, `${url}/settle`, `${url}/supported`). */
  url: string;
  close(): Promise<void>;
}

class BadRequest extends Error {}

/**
 * Serves a Facilitator over x402's facilitator HTTP API: POST /verify and POST /settle with
 * `{x402Version, paymentPayload, paymentRequirements}`, GET /supported. Verdicts are 200 whatever they say;
 * a request that is not the documented shape is a 400; a facilitator that throws is a 500.
 */
export async function serveFacilitator(options: FacilitatorServerOptions): Promise<FacilitatorServer> {
  const server = createServer((request, response) => {
    route(options, request, response).catch((error: unknown) => {
      const status = error instanceof BadRequest ? 400 : 500;
      send(response, status, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

async function route(
  options: FacilitatorServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? "/", "http://facilitator");
  const endpoint = `${request.method} ${url.pathname}`;
  if (endpoint === "GET /supported") return send(response, 200, await options.facilitator.getSupported());
  if (endpoint === "POST /verify" || endpoint === "POST /settle") {
    const { paymentPayload, paymentRequirements } = parseFacilitatorRequest(await readJson(request));
    const verdict =
      endpoint === "POST /verify"
        ? await options.facilitator.verify(paymentPayload, paymentRequirements)
        : await options.facilitator.settle(paymentPayload, paymentRequirements);
    return send(response, 200, verdict);
  }
  if (endpoint === "GET /balance" && options.balanceOf) return sendBalance(options.balanceOf, url, response);
  const rpc =
    request.method === "POST" && url.pathname.startsWith("/rpc/")
      ? options.rpc?.[url.pathname.slice(5)]
      : undefined;
  if (rpc) return send(response, 200, await answerRpc(rpc, await readJson(request)));
  send(response, 404, { error: `no route ${endpoint}` });
}

async function sendBalance(
  balanceOf: NonNullable<FacilitatorServerOptions["balanceOf"]>,
  url: URL,
  response: ServerResponse,
): Promise<void> {
  const network = url.searchParams.get("network");
  const owner = url.searchParams.get("owner");
  if (!network || !owner) throw new BadRequest("GET /balance needs ?network=<CAIP-2>&owner=<address>");
  let balance: bigint;
  try {
    balance = await balanceOf(network as Network, owner);
  } catch (error) {
    throw new BadRequest(error instanceof Error ? error.message : String(error));
  }
  send(response, 200, { network, owner, balance: balance.toString() });
}

function parseFacilitatorRequest(body: unknown): {
  paymentPayload: PaymentPayload;
  paymentRequirements: PaymentRequirements;
} {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (!isObject(body) || !isObject(body.paymentPayload) || !isObject(body.paymentRequirements)) {
    throw new BadRequest("the body must be {x402Version, paymentPayload, paymentRequirements}");
  }
  const requirements = body.paymentRequirements;
  if (typeof requirements.scheme !== "string" || typeof requirements.network !== "string") {
    throw new BadRequest("paymentRequirements needs scheme and network");
  }
  if (!isObject(body.paymentPayload.payload)) throw new BadRequest("paymentPayload needs a payload object");
  return {
    paymentPayload: body.paymentPayload as PaymentPayload,
    paymentRequirements: requirements as PaymentRequirements,
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest("body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BadRequest("the body is not JSON");
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(status, { "content-type": "application/json" }).end(toJson(body));
}
