import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson } from "./json-response.js";

const body = { id: "gen-1", text: "é ✓ 日本".repeat(300), n: 1 };

describe("sendJson", () => {
  let url: string;
  let close: () => void;

  beforeAll(async () => {
    const app = express();
    app.disable("x-powered-by");
    app.disable("etag");
    app.get("/express", (_request, response) => void response.status(200).json(body));
    app.get("/direct", (_request, response) => sendJson(response, body));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });

  afterAll(() => close());

  it("answers with the status, headers and bytes express's res.json() sends", async () => {
    const [viaExpress, direct] = await Promise.all([fetch(`${url}/express`), fetch(`${url}/direct`)]);
    expect(direct.status).toBe(200);
    const headers = (response: Response) =>
      [...response.headers].filter(([name]) => name !== "date" && name !== "keep-alive");
    expect(headers(direct)).toEqual(headers(viaExpress));
    expect(direct.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const bytes = new Uint8Array(await direct.arrayBuffer());
    expect(bytes).toEqual(new Uint8Array(await viaExpress.arrayBuffer()));
    expect(Number(direct.headers.get("content-length"))).toBe(bytes.length);
  });
});
