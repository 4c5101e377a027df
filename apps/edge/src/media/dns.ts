import { Resolver } from "node:dns/promises";

// How a media URL's host is resolved by default: A and AAAA queries over the network (c-ares,
// `dns.Resolver`), not getaddrinfo (`dns.lookup`). getaddrinfo runs on libuv's small thread pool (four
// threads by default), which the edge's own provider connections, file reads and crypto share: a caller
// who names hosts whose name servers answer slowly could hold every thread for seconds. c-ares does not
// block a thread, and each query has its own timeout. Neither /etc/hosts nor the search domains take
// part: the connection goes to the address checked here, so nothing else may decide it.

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface DnsResolverOptions {
  /** Name servers to ask ("127.0.0.1:5353"); default the system's (/etc/resolv.conf). */
  servers?: readonly string[];
  /** Each query's timeout before a retry (c-ares doubles it per try). */
  queryTimeoutMs?: number;
}

/** Every A then every AAAA answer for `host`; throws when the name has neither. */
export function dnsResolver(options: DnsResolverOptions = {}): (host: string) => Promise<ResolvedAddress[]> {
  const resolver = new Resolver({ timeout: options.queryTimeoutMs ?? 2_000, tries: 2 });
  if (options.servers !== undefined) resolver.setServers([...options.servers]);
  return async (host) => {
    const name = host.endsWith(".") ? host.slice(0, -1) : host;
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    if (v4.status === "rejected" && v6.status === "rejected") throw v4.reason;
    return [
      ...(v4.status === "fulfilled" ? v4.value : []).map((address) => ({ address, family: 4 as const })),
      ...(v6.status === "fulfilled" ? v6.value : []).map((address) => ({ address, family: 6 as const })),
    ];
  };
}
