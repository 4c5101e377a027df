import { context, type Span, SpanKind, trace } from "@opentelemetry/api";
import { endSpan, extractContext, tracer } from "./spans.js";

interface TracedMessage {
  headers: Readonly<Record<string, string>>;
}

function consumerSpan(topic: string, groupId: string, message: TracedMessage): Span {
  return tracer().startSpan(
    `${topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "kafka",
        "messaging.destination.name": topic,
        "messaging.consumer.group.name": groupId,
        "messaging.operation.type": "process",
      },
    },
    extractContext(message.headers),
  );
}

/**
 * Wraps a batch handler: each message gets a consumer span parented on the `traceparent` its producer
 * put in its headers (so the processing joins the request's trace), ended with the batch's outcome.
 * The handler runs inside the first message's span; the others link to it.
 */
export function traceBatch<M extends TracedMessage>(
  topic: string,
  groupId: string,
  handler: (messages: M[]) => Promise<void>,
): (messages: M[]) => Promise<void> {
  return async (messages) => {
    const spans = messages.map((message) => consumerSpan(topic, groupId, message));
    const [first] = spans;
    if (first) for (const span of spans.slice(1)) span.addLink({ context: first.spanContext() });
    try {
      const run = () => handler(messages);
      await (first ? context.with(trace.setSpan(context.active(), first), run) : run());
      for (const span of spans) endSpan(span);
    } catch (error) {
      for (const span of spans) endSpan(span, error);
      throw error;
    }
  };
}

/** The same for a handler of one message at a time. */
export function traceMessage<M extends TracedMessage>(
  topic: string,
  groupId: string,
  handler: (message: M) => Promise<void>,
): (message: M) => Promise<void> {
  const batch = traceBatch<M>(topic, groupId, async ([message]) => {
    if (message) await handler(message);
  });
  return (message) => batch([message]);
}
