import {
  decodeEnvelope,
  decodePayload,
  type EventSubscriber,
  KEY_CHANGED_V1,
  type Subscription,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { GetProviderCredentialsResponse } from "@gw/proto/keys/v1/keys";
import type { CredentialSource } from "../clients/credentials.js";
import { ProviderRegistry } from "../providers/registry.js";
import type { ProviderSettings, UpstreamTimeouts } from "../providers/settings.js";
import type { ProviderAdapter } from "../providers/types.js";

/** One of an account's own provider keys (BYOK): its id in the key service, and the adapter that sends it. */
export interface AccountCredential {
  credentialId: string;
  adapter: ProviderAdapter;
}

/** An account's own provider keys, keyed by provider id, in the account's order. */
export type AccountProviders = ReadonlyMap<string, AccountCredential>;

export interface ByokOptions {
  settings: readonly ProviderSettings[];
  timeouts: UpstreamTimeouts;
  logger: Logger;
  /** Upper bound on how long credentials are reused if a byok_changed event is lost. */
  maxTtlMs?: number;
  /** How long a failed lookup is remembered, so an outage of keys does not add an RPC per request. */
  failureTtlMs?: number;
  now?: () => number;
}

interface Entry {
  providers: AccountProviders;
  /** One adapter (and connection pool) per distinct credential; closed when the entry is dropped. */
  adapters: ProviderAdapter[];
  expiresAt: number;
}

const NONE: AccountProviders = new Map();

/**
 * Fetches an account's decrypted provider keys from KeyService, builds an adapter per key, and caches
 * them briefly. A byok_changed event for the account drops the entry at once. Plaintext keys live only
 * inside the adapters' headers; they are never logged.
 */
export class ByokProviders {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, { promise: Promise<Entry>; state: { stale: boolean } }>();
  /** Adapters dropped from the cache, closed once no call can still be using them. */
  private readonly retired = new Map<ReturnType<typeof setTimeout>, readonly ProviderAdapter[]>();
  private readonly bases: ReadonlyMap<string, ProviderSettings>;
  private readonly maxTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: CredentialSource,
    private readonly options: ByokOptions,
  ) {
    this.bases = new Map(options.settings.map((entry) => [entry.id, entry]));
    this.maxTtlMs = options.maxTtlMs ?? 10_000;
    this.failureTtlMs = options.failureTtlMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  async forAccount(accountId: string): Promise<AccountProviders> {
    const cached = this.cache.get(accountId);
    if (cached && cached.expiresAt > this.now()) return cached.providers;
    const pending = this.inFlight.get(accountId);
    if (pending) return (await pending.promise).providers;
    const state = { stale: false };
    const promise = this.load(accountId, state).finally(() => {
      if (this.inFlight.get(accountId)?.state === state) this.inFlight.delete(accountId);
    });
    this.inFlight.set(accountId, { promise, state });
    return (await promise).providers;
  }

  /** Drops the account's adapters; an answer already on its way is used once but not cached. */
  invalidate(accountId: string): void {
    const entry = this.cache.get(accountId);
    this.cache.delete(accountId);
    if (entry) this.retire(entry.adapters);
    const pending = this.inFlight.get(accountId);
    if (pending) {
      pending.state.stale = true;
      this.inFlight.delete(accountId);
    }
  }

  subscribe(bus: EventSubscriber, topic: string, instanceId: string): Promise<Subscription> {
    return bus.subscribe({
      topic,
      groupId: `byok-cache-${instanceId}`,
      fromBeginning: false,
      handler: async (message) => {
        const change = decodePayload(KEY_CHANGED_V1, decodeEnvelope(message.value));
        if (change?.change === "byok_changed") this.invalidate(change.accountId);
      },
    });
  }

  async close(): Promise<void> {
    const adapters = [...this.cache.values()].flatMap((entry) => entry.adapters);
    this.cache.clear();
    for (const [timer, retired] of this.retired) {
      clearTimeout(timer);
      adapters.push(...retired);
    }
    this.retired.clear();
    await this.closeAdapters(adapters);
  }

  private async load(accountId: string, state: { stale: boolean }): Promise<Entry> {
    let entry: Entry;
    try {
      const response = await this.source(accountId);
      entry = this.build(response);
    } catch (error) {
      // Without the account's keys the gateway's own keys still serve the request; say so once per lapse.
      this.options.logger.warn({ err: error, accountId }, "byok credentials unavailable; using gateway keys");
      entry = { providers: NONE, adapters: [], expiresAt: this.now() + this.failureTtlMs };
    }
    if (state.stale) {
      this.retire(entry.adapters);
      return entry;
    }
    const previous = this.cache.get(accountId);
    this.cache.set(accountId, entry);
    if (previous) this.retire(previous.adapters);
    return entry;
  }

  private build(response: GetProviderCredentialsResponse): Entry {
    const providers = new Map<string, AccountCredential>();
    const adapters: ProviderAdapter[] = [];
    const ordered = [...response.credentials].sort((a, b) => a.position - b.position);
    for (const credential of ordered) {
      const base = this.bases.get(credential.providerId);
      if (!base || providers.has(credential.providerId)) continue;
      const adapter = ProviderRegistry.fromSettings(
        [{ ...base, apiKey: credential.apiKey }],
        this.options.timeouts,
      ).get(base.id);
      if (!adapter) continue;
      providers.set(credential.providerId, { credentialId: credential.id, adapter });
      adapters.push(adapter);
    }
    const ttl = Math.min(response.cacheTtlMs || this.maxTtlMs, this.maxTtlMs);
    return { providers, adapters, expiresAt: this.now() + ttl };
  }

  /** Calls may still be running on these adapters: close them after the longest a call can take. */
  private retire(adapters: readonly ProviderAdapter[]): void {
    if (adapters.length === 0) return;
    const timer = setTimeout(() => {
      this.retired.delete(timer);
      void this.closeAdapters(adapters);
    }, this.options.timeouts.totalMs);
    timer.unref();
    this.retired.set(timer, adapters);
  }

  private async closeAdapters(adapters: readonly ProviderAdapter[]): Promise<void> {
    await Promise.all(adapters.map((adapter) => adapter.close().catch(() => undefined)));
  }
}
