import type { ChatRequest } from "./chat-request.js";

/** The countable parts of a prompt, whatever surface it came in on. */
export interface PromptText {
  texts: string[];
  messageCount: number;
  imageCount: number;
}

/** Collects every piece of text the model will read: message content, names, tool calls and tool schemas. */
export function promptText(request: ChatRequest): PromptText {
  const texts: string[] = [];
  let imageCount = 0;
  for (const message of request.messages) {
    if (typeof message.name === "string") texts.push(message.name);
    if (typeof message.content === "string") texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (typeof part.text === "string") texts.push(part.text);
        else if (typeof part.refusal === "string") texts.push(part.refusal);
        else if (part.type === "image_url" || part.type === "input_image") imageCount++;
      }
    }
    if (message.tool_calls) texts.push(JSON.stringify(message.tool_calls));
  }
  if (request.tools) texts.push(JSON.stringify(request.tools));
  return { texts, messageCount: request.messages.length, imageCount };
}
