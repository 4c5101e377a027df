import type { SubscribeOptions } from "@gw/events";
import { traceBatch, traceMessage } from "@gw/telemetry";

/** The subscription with its handler wrapped in consumer spans parented on each message's `traceparent`. */
export function tracedSubscription(options: SubscribeOptions): SubscribeOptions {
  const { topic, groupId } = options;
  if (options.batchHandler)
    return { ...options, batchHandler: traceBatch(topic, groupId, options.batchHandler) };
  if (options.handler) return { ...options, handler: traceMessage(topic, groupId, options.handler) };
  return options;
}
