import { describe, expect, it } from "vitest";
import { API_KEY_MESSAGE, classify, UNKNOWN_KEY_MESSAGE } from "./detect";
import { homePath, navItems } from "./nav";
import type { Session } from "./session";

const answer = (status: number) => new Response(null, { status });
const error = (status: number, reason: string, message = "refused") => ({
  error: { message, type: "x", code: status, metadata: { reason } },
});

describe("classify", () => {
  it("a management key (keys 200) has an account; an operator too when admin answers 200", () => {
    expect(classify("k", { response: answer(200), error: undefined }, 403)).toEqual({
      ok: true,
      session: { credential: "k", kind: "management", hasAccount: true, isOperator: false },
    });
    const both = classify("k", { response: answer(200), error: undefined }, 200);
    expect(both.ok && both.session.isOperator).toBe(true);
  });

  it("the operator token (admin 200, keys refused) has no account", () => {
    expect(classify("op", { response: answer(401), error: error(401, "key_not_found") }, 200)).toEqual({
      ok: true,
      session: { credential: "op", kind: "operator", hasAccount: false, isOperator: true },
    });
  });

  it("an API key is told apart", () => {
    expect(
      classify("sk", { response: answer(403), error: error(403, "management_key_required") }, 403),
    ).toEqual({
      ok: false,
      message: API_KEY_MESSAGE,
    });
  });

  it("an unknown key is refused in words, and anything else shows the API's message", () => {
    expect(classify("x", { response: answer(401), error: error(401, "key_not_found") }, 401)).toEqual({
      ok: false,
      message: UNKNOWN_KEY_MESSAGE,
    });
    const unavailable = classify(
      "x",
      { response: answer(503), error: error(503, "unavailable", "keys down") },
      503,
    );
    expect(unavailable).toEqual({
      ok: false,
      message: "keys down The gateway is temporarily unavailable. Try again in a moment.",
    });
  });
});

describe("navigation per credential", () => {
  const session = (over: Partial<Session>): Session => ({
    credential: "c",
    kind: "management",
    hasAccount: true,
    isOperator: false,
    ...over,
  });
  const names = (value: Session) => navItems(value).map((item) => item.name);

  it("a management key sees the account pages only", () => {
    expect(names(session({}))).toEqual(["Usage", "Credits", "Keys", "Generations", "Models", "Playground"]);
    expect(homePath(session({}))).toBe("/usage");
  });
  it("an operator token sees only the operator pages, an operator's management key both", () => {
    const operator = session({ kind: "operator", hasAccount: false, isOperator: true });
    expect(names(operator)).toEqual(["Accounts", "Catalogue"]);
    expect(homePath(operator)).toBe("/operator/accounts");
    expect(names(session({ isOperator: true }))).toContain("Catalogue");
  });
  it("a wallet has no Keys page (its JWT cannot call the management routes)", () => {
    expect(names(session({ kind: "wallet" }))).toEqual(["Usage", "Generations", "Models", "Playground"]);
  });
});
