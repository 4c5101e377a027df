import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FacilitatorError } from "./errors.js";
import { HttpFacilitator } from "./http-facilitator.js";
import type { PaymentPayload, PaymentRequirements } from "./types.js";

const requirements: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:84532",
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  amount: "10000",
  payTo: "0x2096D3bB2B4aC5F3E4a51cB1a2A0A5cD2B3C287C",
  maxTimeoutSeconds: 60,
  extra: { name: "USDC", version: "2" },
};
const payload: PaymentPayload = { x402Version: 2, accepted: requirements, payload: { signature: "0x00" } };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type Handler = (request: Seen, response: ServerResponse) => void;

let server: Server | undefined;

async function facilitatorServer(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body };
    seen.push(entry);
    handler(entry, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/facilitator/`, seen };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function failure(promise: Promise<unknown>): Promise<FacilitatorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof FacilitatorError))
    throw new Error(`expected a FacilitatorError, got ${String(error)}`);
  return error;
}

describe("HttpFacilitator", () => {
  it("posts {x402Version, paymentPayload, paymentRequirements} to /verify with the auth headers and returns the verdict", async () => {
    const { url, seen } = await facilitatorServer((_, response) =>
      json(response, 200, { isValid: true, payer: "0xabc" }),
    );
    const facilitator = new HttpFacilitator({
      url,
      authHeaders: (operation) => ({ authorization: `Bearer token-for-${operation}` }),
    });
    expect(await facilitator.verify(payload, requirements)).toEqual({ isValid: true, payer: "0xabc" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe("POST");
    expect(seen[0]?.url).toBe("/facilitator/verify");
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(seen[0]?.headers.authorization).toBe("Bearer token-for-verify");
    expect(JSON.parse(seen[0]?.body ?? "")).toEqual({
      x402Version: 2,
      paymentPayload: payload,
      paymentRequirements: requirements,
    });
  });

  it("returns a refusal as a value, also when the facilitator answers it with 400", async () => {
    const refusal = { isValid: false, invalidReason: "insufficient_funds", payer: "0xabc" };
    const { url } = await facilitatorServer((_, response) => json(response, 400, refusal));
    expect(await new HttpFacilitator({ url }).verify(payload, requirements)).toEqual(refusal);
  });

  it("posts to /settle and returns the settlement, success or failure", async () => {
    const settled = { success: true, transaction: "0xfeed", network: "eip155:84532", payer: "0xabc" };
    const failed = {
      success: false,
      transaction: "",
      network: "eip155:84532",
      errorReason: "invalid_exact_evm_nonce_already_used",
    };
    const answers = [settled, failed];
    const { url, seen } = await facilitatorServer((_, response) => json(response, 200, answers.shift()));
    const facilitator = new HttpFacilitator({ url });
    expect(await facilitator.settle(payload, requirements)).toEqual(settled);
    expect(await facilitator.settle(payload, requirements)).toEqual(failed);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /facilitator/settle",
      "POST /facilitator/settle",
    ]);
  });

  it("gets /supported and returns kinds, extensions and signers", async () => {
    const supported = {
      kinds: [
        {
          x402Version: 2,
          scheme: "exact",
          network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
          extra: { feePayer: "Fee1" },
        },
        // Real facilitators list v1 kinds beside the v2 ones, with v1's plain network names.
        { x402Version: 1, scheme: "exact", network: "base-sepolia" },
      ],
      extensions: [],
      signers: { "solana:*": ["Fee1"] },
    };
    const { url, seen } = await facilitatorServer((_, response) => json(response, 200, supported));
    expect(await new HttpFacilitator({ url }).getSupported()).toEqual(supported);
    expect(seen[0]?.method).toBe("GET");
    expect(seen[0]?.url).toBe("/facilitator/supported");
  });

  it("gives up after the timeout when the facilitator does not answer: a timeout error, 503", async () => {
    const { url } = await facilitatorServer(() => {});
    const started = Date.now();
    const error = await failure(new HttpFacilitator({ url, timeoutMs: 150 }).settle(payload, requirements));
    expect(error.kind).toBe("timeout");
    expect(error.operation).toBe("settle");
    expect(error.httpStatus).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up after the timeout when the facilitator sends headers and then stalls the body", async () => {
    const { url } = await facilitatorServer((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"isValid":');
    });
    const error = await failure(new HttpFacilitator({ url, timeoutMs: 150 }).verify(payload, requirements));
    expect(error.kind).toBe("timeout");
  });

  it("reports a facilitator that cannot be reached as unreachable, 503", async () => {
    const { url } = await facilitatorServer(() => {});
    server?.close();
    await once(server as Server, "close");
    const error = await failure(new HttpFacilitator({ url }).verify(payload, requirements));
    expect(error.kind).toBe("unreachable");
    expect(error.httpStatus).toBe(503);
  });

  it("reports statuses without a verdict as bad_status, 502", async () => {
    const answers: Array<[number, string]> = [
      [500, '{"success":false,"transaction":"","network":"eip155:84532"}'],
      [503, "overloaded"],
      [404, "<html>not found</html>"],
      [401, '{"error":"unauthorized"}'],
      [302, ""],
    ];
    const { url } = await facilitatorServer((_, response) => {
      const [status, body] = answers.shift() ?? [500, ""];
      response.writeHead(status, { location: "/elsewhere" }).end(body);
    });
    const facilitator = new HttpFacilitator({ url });
    for (const status of [500, 503, 404, 401, 302]) {
      const error = await failure(facilitator.settle(payload, requirements));
      expect([error.kind, error.status, error.httpStatus]).toEqual(["bad_status", status, 502]);
    }
  });

  it("does not read an answer beyond 256 KiB: malformed_response, 502", async () => {
    const { url } = await facilitatorServer((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"isValid":true,"payer":"${"a".repeat(300 * 1024)}"}`);
    });
    const error = await failure(new HttpFacilitator({ url }).verify(payload, requirements));
    expect([error.kind, error.httpStatus]).toEqual(["malformed_response", 502]);
  });

  it("reports a 2xx body that is not the documented shape as malformed_response, 502", async () => {
    const bodies = [
      "not json",
      '{"valid":true}',
      '{"isValid":"yes"}',
      '{"isValid":true,"payer":7}',
      '{"success":true,"transaction":"","network":"eip155:84532"}',
      '{"success":true,"transaction":"0x1","network":"Base Sepolia!"}',
      '{"kinds":[{"scheme":"exact"}]}',
    ];
    const { url } = await facilitatorServer((_, response) => response.writeHead(200).end(bodies.shift()));
    const facilitator = new HttpFacilitator({ url });
    const calls = [
      () => facilitator.verify(payload, requirements),
      () => facilitator.verify(payload, requirements),
      () => facilitator.verify(payload, requirements),
      () => facilitator.verify(payload, requirements),
      () => facilitator.settle(payload, requirements),
      () => facilitator.settle(payload, requirements),
      () => facilitator.getSupported(),
    ];
    for (const call of calls) {
      const error = await failure(call());
      expect([error.kind, error.httpStatus]).toEqual(["malformed_response", 502]);
    }
  });
});
