import type { ChatMessage, ChatRequest } from "../../canonical/chat-request.js";

/**
 * The request without `cache_control` breakpoints on content parts and tools, for OpenAI-compatible
 * hosts: OpenAI caches prompt prefixes on its own and its chat API has no breakpoint field
 * (platform.openai.com/docs/guides/prompt-caching: "Caching is enabled automatically"), which is also
 * what OpenRouter does with them there. Cached reads still come back as `cached_tokens` and are priced.
 */
export function withoutCacheMarkers(request: ChatRequest): ChatRequest {
  const messages = request.messages.map(messageWithoutMarkers);
  const tools = request.tools?.map((tool) => withoutMarker(tool));
  // OpenRouter's top-level `cache_control` (automatic caching) likewise: OpenAI's API has no such field.
  return withoutMarker({ ...request, messages, ...(tools ? { tools } : {}) });
}

function messageWithoutMarkers(message: ChatMessage): ChatMessage {
  if (!Array.isArray(message.content)) return message;
  if (!message.content.some((part) => "cache_control" in part)) return message;
  return { ...message, content: message.content.map((part) => withoutMarker(part)) };
}

function withoutMarker<T extends Record<string, unknown>>(holder: T): T {
  if (!("cache_control" in holder)) return holder;
  const { cache_control: _marker, ...rest } = holder;
  return rest as T;
}
