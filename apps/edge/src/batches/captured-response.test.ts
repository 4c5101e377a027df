import { describe, expect, it } from "vitest";
import { sendJson } from "../pipeline/json-response.js";
import { CapturedResponse } from "./captured-response.js";

describe("CapturedResponse", () => {
  it("keeps a JSON answer written directly by sendJson, parsed, as a batch result", () => {
    const captured = new CapturedResponse();
    sendJson(captured.asResponse(), { id: "msg_1", content: [{ type: "text", text: "hi" }] });
    expect(captured.statusCode).toBe(200);
    expect(captured.writableFinished).toBe(true);
    expect(captured.body).toEqual({ id: "msg_1", content: [{ type: "text", text: "hi" }] });
  });

  it("keeps an answer given to res.json() as it is", () => {
    const captured = new CapturedResponse();
    captured.asResponse().status(404).json({ type: "error" });
    expect(captured.statusCode).toBe(404);
    expect(captured.body).toEqual({ type: "error" });
  });
});
