import { silentLogger } from "@gw/logger";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLog } from "./request-log.js";

// Every response carries x-request-id (the caller's when sane), and the Anthropic surface also request-id.

let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(requestLog(silentLogger(), () => 0));
  app.use((_request, response) => {
    response.status(404).json({ ok: false });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  close = () => server.close();
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: "POST", headers });

describe("request ids", () => {
  it("keeps a sane caller id", async () => {
    for (const id of ["3d269214-6b6e-41f5-bcad-602bd5e394db", "req_011CV9Ebv6mAPLM4YvfvaUcx", "abc.def:1"]) {
      const response = await get("/v1/chat/completions", { "x-request-id": id });
      expect(response.headers.get("x-request-id")).toBe(id);
    }
  });

  it("replaces a missing, long or odd one with a fresh id, different each time", async () => {
    const ids: (string | null)[] = [];
    for (const headers of <Record<string, string>[]>[
      {},
      { "x-request-id": "a".repeat(129) },
      { "x-request-id": "has space" },
      { "x-request-id": "-lead" },
    ]) {
      const id = (await get("/v1/chat/completions", headers)).headers.get("x-request-id");
      expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("adds request-id on the Anthropic surface only", async () => {
    const messages = await get("/v1/messages", { "x-request-id": "abc123" });
    expect(messages.headers.get("request-id")).toBe("abc123");
    expect(messages.headers.get("x-request-id")).toBe("abc123");
    const chat = await get("/v1/chat/completions");
    expect(chat.headers.get("request-id")).toBeNull();
    const gemini = await get("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(gemini.headers.get("request-id")).toBeNull();
    expect(gemini.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
