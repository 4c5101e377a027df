import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { extname } from "node:path";
import type { Request, Response } from "express";

/** The content codings the console build writes beside its text files, best first (scripts/precompress.ts). */
export const CODINGS = ["br", "gzip"] as const;
export type Coding = (typeof CODINGS)[number];

const SUFFIX: Readonly<Record<Coding, string>> = { br: ".br", gzip: ".gz" };

/**
 * The coding to send, from an Accept-Encoding header (RFC 9110 §12.5.3) and the codings on disk: the
 * highest q-value wins, br before gzip before identity when equal; q=0 refuses a coding. `*` gives its
 * q-value to every coding not named, identity included; `x-gzip` is gzip (§8.4.1.3). No header or an
 * empty one: identity. Undefined means identity, which is also what a client refusing everything gets.
 */
export function chooseCoding(header: string | undefined, available: readonly Coding[]): Coding | undefined {
  if (header === undefined) return undefined;
  const weights = parseAcceptEncoding(header);
  const star = weights.get("*");
  // Identity is acceptable unless refused; not named, it ranks with the least wanted coding named (as
  // negotiator does), so `gzip;q=0.8` alone still means gzip.
  const unnamedIdentity = Math.min(1, ...weights.values());
  const weight = (coding: string): number =>
    weights.get(coding) ?? star ?? (coding === "identity" ? unnamedIdentity : 0);
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of CODINGS) {
    if (!available.includes(coding)) continue;
    const q = weight(coding);
    if (q > bestWeight) {
      best = coding;
      bestWeight = q;
    }
  }
  // Identity wins only with a higher q-value than the best coding (it comes last on a tie).
  return best !== undefined && bestWeight >= weight("identity") ? best : undefined;
}

/** Coding → q-value (lower-cased; a malformed entry is left out, a repeated one keeps its first q). */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(",")) {
    const [name = "", ...parameters] = item.split(";").map((part) => part.trim());
    let coding = name.toLowerCase();
    if (!/^(?:\*|[a-z0-9!#$%&'*+.^_`|~-]+)$/.test(coding)) continue;
    if (coding === "x-gzip") coding = "gzip";
    let q: number | undefined = 1;
    for (const parameter of parameters) {
      const match = /^q\s*=\s*(.*)$/i.exec(parameter);
      if (match)
        q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(match[1] ?? "") ? Number(match[1]) : undefined;
    }
    if (q !== undefined && !weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

/**
 * Sends `file` as its precompressed `.br` / `.gz` sibling when the client accepts that coding: the
 * identity file's Content-Type, the sibling's length, `Vary: Accept-Encoding`, and validators derived
 * from the identity file (its Last-Modified; its ETag with the coding appended, so each representation
 * has its own), which send checks for 304s as it does for the identity file. Resolves false, having
 * sent nothing, when the identity file should go instead: no sibling, a Range request (ranges are of
 * the identity bytes), or a client that does not accept one; the response then already carries Vary
 * when a sibling exists, as the identity answer varies too. Should the sibling go away between the stat
 * and the read, `identityInstead` is called to send the identity file.
 */
export async function sendPrecompressed(
  request: Request,
  response: Response,
  file: string,
  cacheControl: string,
  identityInstead: () => void,
): Promise<boolean> {
  const [identity, ...siblings] = await Promise.all([
    regularFile(file),
    ...CODINGS.map((coding) => regularFile(file + SUFFIX[coding])),
  ]);
  if (!identity) return false;
  const available = CODINGS.filter((_coding, index) => siblings[index] !== undefined);
  if (available.length === 0) return false;
  response.vary("Accept-Encoding");
  if (request.headers.range !== undefined) return false;
  const coding = chooseCoding(request.headers["accept-encoding"], available);
  if (coding === undefined) return false;
  response.setHeader("Cache-Control", cacheControl);
  response.setHeader("Content-Encoding", coding);
  response.setHeader("ETag", codingETag(identity, coding));
  response.setHeader("Last-Modified", identity.mtime.toUTCString());
  response.type(extname(file));
  response.sendFile(
    file + SUFFIX[coding],
    { etag: false, lastModified: false, acceptRanges: false, cacheControl: false, dotfiles: "allow" },
    (error) => {
      if (!error || response.headersSent) return;
      // The sibling went away between the stat and the read: the identity file instead.
      for (const header of ["Content-Encoding", "ETag", "Last-Modified", "Content-Type", "Content-Length"])
        response.removeHeader(header);
      identityInstead();
    },
  );
  return true;
}

/**
 * The identity file's weak ETag as send makes it (`W/"<size hex>-<mtime ms hex>"`, the `etag` package's
 * form for a file's stats) with the coding appended.
 */
export function codingETag(identity: Stats, coding: Coding): string {
  return `W/"${identity.size.toString(16)}-${identity.mtime.getTime().toString(16)}-${coding}"`;
}

async function regularFile(path: string): Promise<Stats | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}
