import type { Endpoint, Model } from "@gw/proto/catalog/v1/catalog";
import { describe, expect, it } from "vitest";
import type { ProviderAdapter } from "../providers/types.js";
import type { AccountCredential } from "./byok-credentials.js";
import { preferByok, withByok } from "./byok-order.js";
import type { PlannedAttempt } from "./plan.js";

function adapter(id: string): AccountCredential {
  const own: ProviderAdapter = {
    id,
    apiFormat: "openai",
    isDemo: false,
    chat: { complete: async () => ({ ok: false, failure: undefined as never }) },
    unsupported: undefined,
    close: async () => {},
  };
  return { credentialId: `byok_${id}`, adapter: own };
}

function attempt(model: string, provider: string): PlannedAttempt {
  return { model: { id: model } as Model, endpoint: { providerId: provider } as Endpoint };
}

const route = (attempts: PlannedAttempt[]) =>
  attempts.map((entry) => `${entry.model.id}@${entry.endpoint.providerId}${entry.byok ? "*" : ""}`);

describe("preferByok", () => {
  it("moves the account's own providers first within each model, in the account's order", () => {
    const byok = new Map([
      ["groq", adapter("groq")],
      ["together", adapter("together")],
    ]);
    const planned = [
      attempt("a", "openai"),
      attempt("a", "together"),
      attempt("a", "groq"),
      attempt("b", "openai"),
      attempt("b", "groq"),
    ];
    expect(route(preferByok(planned, byok))).toEqual([
      "a@groq*",
      "a@together*",
      "a@openai",
      "b@groq*",
      "b@openai",
    ]);
  });

  it("falls back to the same provider on the gateway's key after the own key, as OpenRouter does by default", () => {
    const byok = new Map([["openai", adapter("openai")]]);
    const planned = [attempt("a", "openai"), attempt("a", "groq"), attempt("b", "openai")];
    // The gateway has a key for openai and groq: after the own key, the model's plan on the gateway's keys.
    expect(route(preferByok(planned, byok, () => true))).toEqual([
      "a@openai*",
      "a@openai",
      "a@groq",
      "b@openai*",
      "b@openai",
    ]);
    // A provider only the account has a key for gets no shared attempt.
    expect(route(preferByok(planned, byok, (provider) => provider !== "openai"))).toEqual([
      "a@openai*",
      "a@groq",
      "b@openai*",
    ]);
  });

  it("leaves the plan alone without BYOK keys", () => {
    const planned = [attempt("a", "openai"), attempt("a", "groq")];
    expect(route(preferByok(planned, new Map()))).toEqual(["a@openai", "a@groq"]);
  });
});

describe("withByok", () => {
  it("makes a provider the gateway has no key for usable when the account brought one", () => {
    const base = () => ({
      usable: false as const,
      code: "provider_not_configured" as const,
      reason: "no key",
    });
    const availability = withByok(base, new Map([["mistral", adapter("mistral")]]));
    expect(availability("mistral")).toEqual({ usable: true });
    expect(availability("openai")).toMatchObject({ usable: false, code: "provider_not_configured" });
  });
});
