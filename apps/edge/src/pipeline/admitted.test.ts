import { describe, expect, it } from "vitest";
import { testKey } from "../test/principals.js";
import { type AdmittedChat, subjectOf } from "./admitted.js";

const key = testKey("acct-admitted-unit");
const chat = (extra: Partial<AdmittedChat>): AdmittedChat =>
  ({
    generationId: "gen-1",
    principal: key.principal,
    request: { model: "openai/gpt-4o-mini", messages: [] },
    startedAt: 0,
    hold: { holdId: "gen-1", accountId: key.principal.accountId, keyHash: key.principal.keyHash },
    surface: { apiType: "chat" },
    attribution: undefined,
    ...extra,
  }) as unknown as AdmittedChat;

describe("the plugins recorded on the generation", () => {
  it("name the file-parser when it turned PDFs into text, and the web search, in that order", () => {
    expect(subjectOf(chat({})).plugins).toBeUndefined();
    expect(subjectOf(chat({ fileParser: true })).plugins).toEqual(["file-parser"]);
    expect(subjectOf(chat({ fileParser: true, webResults: [] })).plugins).toEqual(["file-parser", "web"]);
  });
});
