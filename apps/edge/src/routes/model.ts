import { authenticate, principalOf } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { Request, Response } from "express";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { nativeModelId } from "../planning/native-model.js";
import { anthropicModel, geminiModel, modelsDialect } from "../translate/native-models.js";
import { visibleModel } from "../translate/openai/models.js";
import { modelScope } from "./models.js";
import type { Route } from "./route.js";

/**
 * GET /v1/models/{author}/{slug} (openai-node's `models.retrieve`). A model the key cannot use is
 * answered exactly like one that does not exist.
 */
export function modelRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const segments = request.params.id;
    const requested = Array.isArray(segments) ? segments.join("/") : String(segments);
    const dialect = modelsDialect(request);
    const snapshot = context.catalog.require();
    // Native SDKs name models their own way (`claude-sonnet-4`, `models/gemini-2.5-flash`).
    const id =
      dialect === "openai"
        ? requested
        : nativeModelId(snapshot, requested, [dialect === "gemini" ? "google" : "anthropic"]);
    const model = snapshot.model(id);
    const entry = model && visibleModel(model, await modelScope(context, principalOf(request)));
    if (!entry)
      throw new GatewayError("not_found", `model ${requested} does not exist`, { code: "model_not_found" });
    if (dialect === "anthropic") response.json(anthropicModel(entry));
    else if (dialect === "gemini") response.json(geminiModel(entry, model));
    else response.json(entry);
  };
  return {
    method: "get",
    path: ["/v1/models/*id", "/v1beta/models/*id"],
    handlers: [authenticate(context.principals, "regular"), handler],
  };
}
