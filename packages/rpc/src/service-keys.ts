import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";

/** The apps that call one another; a service token names one as issuer and one as audience. */
export const SERVICE_NAMES = ["edge", "keys", "billing", "generations"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): the fixed prefix, then the seed.
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
// SubjectPublicKeyInfo wrapping of a raw 32-byte Ed25519 public key.
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** A value that is not a key; the message names what is wrong, never the value. */
export class ServiceKeyError extends Error {}

function raw32(value: string, what: string): Buffer {
  const text = value.trim();
  if (!/^[A-Za-z0-9_+/-]+={0,2}$/.test(text)) throw new ServiceKeyError(`${what} is not base64url`);
  const bytes = Buffer.from(text.replaceAll("+", "-").replaceAll("/", "_"), "base64url");
  if (bytes.length !== 32) throw new ServiceKeyError(`${what} must be 32 bytes (43 base64url characters)`);
  return bytes;
}

/** An app's signing key from its SERVICE_AUTH_PRIVATE_KEY: the 32-byte Ed25519 seed, base64url. */
export function parseServicePrivateKey(value: string): KeyObject {
  const seed = raw32(value, "the private key");
  return createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
}

export function parseServicePublicKey(value: string): KeyObject {
  const key = raw32(value, "a public key");
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, key]), format: "der", type: "spki" });
}

/**
 * SERVICE_AUTH_PUBLIC_KEYS: `edge=<key>,keys=<key>,…`, each the app's raw Ed25519 public key in
 * base64url. Public keys are not secret: every app may be given the same list.
 */
export function parseServicePublicKeys(value: string): Map<ServiceName, KeyObject> {
  const keys = new Map<ServiceName, KeyObject>();
  for (const entry of value.split(",")) {
    const trimmed = entry.trim();
    if (trimmed === "") continue;
    const separator = trimmed.indexOf("=");
    if (separator <= 0) throw new ServiceKeyError(`entry ${keys.size + 1} is not name=key`);
    const name = trimmed.slice(0, separator).trim();
    if (!isServiceName(name)) {
      throw new ServiceKeyError(`unknown service "${name}" (expected one of ${SERVICE_NAMES.join(", ")})`);
    }
    if (keys.has(name)) throw new ServiceKeyError(`service "${name}" is listed twice`);
    keys.set(name, parseServicePublicKey(trimmed.slice(separator + 1)));
  }
  if (keys.size === 0) throw new ServiceKeyError("no public keys listed");
  return keys;
}

export interface ServiceKeyPair {
  /** SERVICE_AUTH_PRIVATE_KEY of this app. */
  privateKey: string;
  /** This app's entry in SERVICE_AUTH_PUBLIC_KEYS. */
  publicKey: string;
}

/** A fresh key pair per app, in the env variables' encoding (what `gw service-keys` prints). */
export function generateServiceKeys(): Record<ServiceName, ServiceKeyPair> {
  const entries = SERVICE_NAMES.map((name) => {
    const pair = generateKeyPairSync("ed25519");
    const seed = pair.privateKey
      .export({ format: "der", type: "pkcs8" })
      .subarray(PKCS8_ED25519_PREFIX.length);
    const publicKey = pair.publicKey
      .export({ format: "der", type: "spki" })
      .subarray(SPKI_ED25519_PREFIX.length);
    return [name, { privateKey: seed.toString("base64url"), publicKey: publicKey.toString("base64url") }];
  });
  return Object.fromEntries(entries) as Record<ServiceName, ServiceKeyPair>;
}

/** The two variables an app of a generated set is started with (tests, the bench). */
export function serviceAuthEnvFor(
  app: ServiceName,
  keys: Record<ServiceName, ServiceKeyPair>,
): { SERVICE_AUTH_PRIVATE_KEY: string; SERVICE_AUTH_PUBLIC_KEYS: string } {
  return { SERVICE_AUTH_PRIVATE_KEY: keys[app].privateKey, SERVICE_AUTH_PUBLIC_KEYS: publicKeyList(keys) };
}

/** SERVICE_AUTH_PUBLIC_KEYS for a generated set. */
export function publicKeyList(keys: Record<ServiceName, ServiceKeyPair>): string {
  return SERVICE_NAMES.map((name) => `${name}=${keys[name].publicKey}`).join(",");
}
