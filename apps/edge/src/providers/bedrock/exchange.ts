import type { AwsCredential } from "@gw/http";
import { converseRequestBody } from "../../translate/bedrock/converse-request.js";
import {
  type ConverseUsageWire,
  completionFromConverse,
  usageFromConverse,
} from "../../translate/bedrock/converse-response.js";
import { thoughtsExcluded } from "../../translate/openai/reasoning.js";
import { UntranslatableError } from "../../translate/untranslatable.js";
import { parseAnthropicMessage } from "../anthropic/chat.js";
import { readAnswer } from "../exchange.js";
import { withoutThoughts } from "../excluded-thoughts.js";
import { httpFailure, networkFailure, type UpstreamFailure } from "../failure.js";
import { type AttemptSignals, isFailure, type UpstreamHttp, type UpstreamResponse } from "../http.js";
import type { CanonicalCompletion, ChatCall, ChatResult, StreamEvent } from "../types.js";
import { type BedrockOperation, isAnthropicModel, operationPath, regionOf } from "./api.js";
import type { AwsSettings } from "./credentials.js";
import { readBedrockFailure } from "./errors.js";
import { bedrockAnthropicBody } from "./invoke.js";
import { signedHeaders } from "./signing.js";
import { bedrockStreamEvents, converseStreamMapper, invokeStreamMapper } from "./stream.js";

/** The regional connection pool a call goes to, and its base URL for signing. */
export interface RegionalHttp {
  http: UpstreamHttp;
  baseUrl: URL;
}

const EVENT_STREAM = "application/vnd.amazon.eventstream";
// What is still read of a finished stream's body (its end) before the connection is given up instead.
const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * One Bedrock chat call: Claude through InvokeModel(WithResponseStream) with Anthropic's body, any other
 * model through Converse(Stream); signed with SigV4 for the call's region at the moment it is sent.
 */
export async function bedrockChat(
  call: ChatCall,
  aws: AwsSettings | undefined,
  pool: (region: string) => RegionalHttp,
): Promise<ChatResult> {
  if (!aws)
    return { ok: false, failure: credentialFailure("the account's AWS credential is not valid JSON") };
  const anthropic = isAnthropicModel(call.upstreamModel);
  let body: string;
  try {
    const json = anthropic
      ? bedrockAnthropicBody(call.request, call.upstreamModel, call.outputCap)
      : converseRequestBody(call.request);
    body = JSON.stringify(json);
  } catch (error) {
    if (error instanceof UntranslatableError)
      return { ok: false, failure: httpFailure(400, error.message, "untranslatable_request") };
    throw error;
  }
  let credential: AwsCredential;
  try {
    credential = await aws.credentials();
  } catch (error) {
    return { ok: false, failure: credentialFailure(error instanceof Error ? error.message : String(error)) };
  }
  const region = regionOf(call.upstreamModel, aws.region);
  const { http, baseUrl } = pool(region);
  const path = operationPath(call.upstreamModel, operation(anthropic, call.stream));
  const url = new URL(`${baseUrl.pathname.replace(/\/+$/, "")}${path}`, baseUrl);
  const headers = await signedHeaders(
    {
      url,
      region,
      body,
      headers: {
        "content-type": "application/json",
        accept: call.stream ? EVENT_STREAM : "application/json",
      },
    },
    credential,
  );
  const signals = http.signals(call.signal);
  const response = await http.send({ method: "POST", path, headers, body }, signals);
  if (isFailure(response)) return { ok: false, failure: response };
  if (response.status < 200 || response.status >= 300)
    return { ok: false, failure: await readBedrockFailure(response) };
  const result = call.stream
    ? await streamed(response, signals, anthropic)
    : await answered(response, signals, anthropic);
  // Claude's thinking arrives as Anthropic's; a caller who asked to exclude it does not get it.
  return anthropic && thoughtsExcluded(call.request) ? withoutThoughts(result) : result;
}

function operation(anthropic: boolean, stream: boolean): BedrockOperation {
  if (anthropic) return stream ? "invoke-with-response-stream" : "invoke";
  return stream ? "converse-stream" : "converse";
}

async function answered(
  response: UpstreamResponse,
  signals: AttemptSignals,
  anthropic: boolean,
): Promise<ChatResult> {
  const requestId = headerText(response.headers["x-amzn-requestid"]);
  const parse = anthropic ? parseAnthropicMessage : (json: unknown) => parseConverse(json, requestId);
  const answer = await readAnswer({ ok: true, response, signals }, parse);
  if (!answer.ok) return answer;
  return { ok: true, stream: false, status: response.status, completion: answer.value };
}

function parseConverse(json: unknown, requestId: string | undefined): CanonicalCompletion | UpstreamFailure {
  const record = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : undefined;
  if (!record || typeof record.output !== "object" || record.output === null)
    return networkFailure("protocol", "the provider returned a malformed Converse response");
  return {
    body: completionFromConverse(record, requestId),
    upstreamId: requestId,
    usage: usageFromConverse(record.usage as ConverseUsageWire | undefined),
    nativeFinishReason: typeof record.stopReason === "string" ? record.stopReason : undefined,
  };
}

async function streamed(
  response: UpstreamResponse,
  signals: AttemptSignals,
  anthropic: boolean,
): Promise<ChatResult> {
  if (!headerText(response.headers["content-type"])?.includes(EVENT_STREAM)) {
    await response.body.dump().catch(() => undefined);
    return {
      ok: false,
      failure: networkFailure("protocol", "the provider did not answer with an event stream"),
    };
  }
  const requestId = headerText(response.headers["x-amzn-requestid"]);
  const mapper = anthropic ? invokeStreamMapper() : converseStreamMapper(requestId);
  return {
    ok: true,
    stream: true,
    status: response.status,
    events: drained(bedrockStreamEvents(response.body, signals, mapper), response, signals),
  };
}

/** Reads a stream's rest off once its events stopped, so the connection can serve the next call. */
async function* drained(
  events: AsyncIterable<StreamEvent>,
  response: UpstreamResponse,
  signals: AttemptSignals,
): AsyncGenerator<StreamEvent> {
  try {
    yield* events;
  } finally {
    if (!signals.combined.aborted) response.body.dump({ limit: DRAIN_LIMIT_BYTES }).catch(() => undefined);
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The gateway's (or the account's) AWS credential cannot be used: a provider credential failure. */
function credentialFailure(message: string): UpstreamFailure {
  return httpFailure(403, message, "AwsCredentialsUnavailable");
}
