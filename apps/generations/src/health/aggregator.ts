import { createHash } from "node:crypto";
import {
  type ConsumedMessage,
  decodeEnvelope,
  decodePayload,
  type EventSubscriber,
  type Subscription,
  USAGE_CONSUMER_LINGER_MS,
  USAGE_RECORDED_V1,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { EndpointHealth, GetEndpointHealthResponse } from "@gw/proto/generations/v1/health";
import type { Kysely } from "kysely";
import { figuresOf } from "./figures.js";
import { samplesOf } from "./samples.js";
import { type EventSamples, readWindow, recordSamples, sweepWindow, WINDOW_MS } from "./store.js";
import type { HealthTables } from "./tables.js";

/** The health aggregator's consumer group: one per deployment, its members share the partitions. */
export const HEALTH_GROUP_ID = "endpoint-health";

interface Computed {
  version: string;
  computedAtMs: number;
  endpoints: EndpointHealth[];
  byKey: Map<string, EndpointHealth>;
}

export interface HealthFiguresOptions {
  now?: () => number;
  /** How often the figures are recomputed from the buckets (the window moves on without events too). */
  refreshMs?: number;
  logger?: Pick<Logger, "warn">;
}

/**
 * The measured figures every edge routes on and the endpoints view shows: recomputed from the minute
 * buckets every second and after each consumed batch, held in memory by version, so an edge's poll and
 * a view cost no query.
 */
export class HealthFigures {
  private computed: Computed = { version: "", computedAtMs: 0, endpoints: [], byKey: new Map() };
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastSweep = 0;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<HealthTables>,
    private readonly options: HealthFiguresOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  get(knownVersion: string): GetEndpointHealthResponse {
    const { version, computedAtMs, endpoints } = this.computed;
    const notModified = knownVersion !== "" && knownVersion === version;
    return {
      version,
      notModified,
      computedAtMs: BigInt(computedAtMs),
      endpoints: notModified ? [] : endpoints,
    };
  }

  /** One endpoint's figures, or undefined when it has had no attempt in the window. */
  figure(model: string, providerId: string): EndpointHealth | undefined {
    return this.computed.byKey.get(`${model}\n${providerId}`);
  }

  /** Recomputes now (coalesced with one already running). Never rejects. */
  refresh(): Promise<void> {
    this.inFlight ??= this.compute()
      .catch((error: unknown) => this.options.logger?.warn({ err: error }, "endpoint health refresh failed"))
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.options.refreshMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private async compute(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await sweepWindow(this.db, now);
    }
    const endpoints = figuresOf(await readWindow(this.db, now), now);
    const version = createHash("sha256").update(JSON.stringify(endpoints)).digest("hex").slice(0, 16);
    this.computed = {
      version,
      computedAtMs: now,
      endpoints,
      byKey: new Map(endpoints.map((endpoint) => [`${endpoint.model}\n${endpoint.providerId}`, endpoint])),
    };
  }
}

export interface ConsumeHealthOptions {
  topic: string;
  /** Default HEALTH_GROUP_ID; a test on a shared broker passes its own so no other run joins its group. */
  groupId?: string;
  db: Kysely<HealthTables>;
  figures: HealthFigures;
  /** The catalogue's endpoints (`model\nprovider`): attempts at anything else (an unpriced proxy call) are not kept. */
  knownEndpoints: () => Promise<ReadonlySet<string>>;
  now?: () => number;
}

/**
 * The health aggregator: consumes every usage event (its own consumer group, from the newest offset:
 * older traffic is outside the window anyway) and adds each attempt to its endpoint's minute bucket.
 * The batch resolves after the rows are written, so offsets commit after the counts exist.
 */
export function consumeHealth(bus: EventSubscriber, options: ConsumeHealthOptions): Promise<Subscription> {
  const now = options.now ?? Date.now;
  return bus.subscribe({
    topic: options.topic,
    groupId: options.groupId ?? HEALTH_GROUP_ID,
    fromBeginning: false,
    lingerMs: USAGE_CONSUMER_LINGER_MS,
    batchHandler: async (messages) => {
      const known = await options.knownEndpoints();
      const events = messages.flatMap((message) => eventSamples(message, known, now()));
      if ((await recordSamples(options.db, events)) > 0) await options.figures.refresh();
    },
  });
}

function eventSamples(message: ConsumedMessage, known: ReadonlySet<string>, now: number): EventSamples[] {
  const envelope = decodeEnvelope(message.value);
  const usage = decodePayload(USAGE_RECORDED_V1, envelope);
  if (!usage) return [];
  const at = envelope.occurredAt ?? usage.createdAt ?? new Date(now);
  if (now - at.getTime() > WINDOW_MS) return [];
  const samples = samplesOf(usage).filter((sample) => known.has(`${sample.model}\n${sample.provider}`));
  return samples.length > 0 ? [{ generationId: usage.generationId, at, samples }] : [];
}
