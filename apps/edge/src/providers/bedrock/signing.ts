import type { AwsCredential } from "@gw/http";
import { Hash } from "@smithy/core/serde";
import { SignatureV4 } from "@smithy/signature-v4";
import { SIGNING_SERVICE } from "./api.js";

export interface SigningTarget {
  readonly url: URL;
  readonly region: string;
  readonly body: string;
  readonly headers: Record<string, string>;
}

/**
 * Signs one request with AWS Signature Version 4 (the AWS General Reference's "Signing AWS API requests"):
 * the canonical request over method, path, query, the signed headers (host, x-amz-date, content-type,
 * accept, x-amz-security-token) and the body's SHA-256, scoped to date/region/`bedrock`. Computed per
 * request: the date is part of the signature, so a signed request cannot be replayed after 15 minutes.
 * The returned headers are the ones given plus `authorization`, `x-amz-date`, `x-amz-content-sha256` and,
 * with temporary credentials, `x-amz-security-token`.
 */
export async function signedHeaders(
  target: SigningTarget,
  credentials: AwsCredential,
  now: Date = new Date(),
): Promise<Record<string, string>> {
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    },
    region: target.region,
    service: SIGNING_SERVICE,
    // The SDK's own Node hash, bound to SHA-256 as its signer expects (`new sha256(secret?)`).
    sha256: Hash.bind(null, "sha256"),
  });
  const signed = await signer.sign(
    {
      method: "POST",
      protocol: target.url.protocol,
      hostname: target.url.hostname,
      ...(target.url.port ? { port: Number(target.url.port) } : {}),
      path: target.url.pathname,
      query: {},
      headers: { ...target.headers, host: target.url.host },
      body: target.body,
    },
    { signingDate: now },
  );
  const headers = { ...(signed.headers as Record<string, string>) };
  // undici sets Host from the pool's origin; sending it twice would be refused.
  delete headers.host;
  return headers;
}
