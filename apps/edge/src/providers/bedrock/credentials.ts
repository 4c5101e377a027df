import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "@gw/config";
import { type AwsCredential, parseAwsCredential } from "@gw/http";
import { loadSharedConfigFiles } from "@smithy/core/config";
import { DEFAULT_REGION } from "./api.js";

/** Where a Bedrock adapter's signing credentials come from, resolved when a call needs them. */
export type CredentialSource = () => Promise<AwsCredential>;

/** The gateway's own AWS identity for Bedrock, from the standard AWS variables. */
export interface AwsSettings {
  /** The region of calls whose model id names none (AWS_REGION, then AWS_DEFAULT_REGION, then us-east-1). */
  readonly region: string;
  readonly credentials: CredentialSource;
}

/**
 * The AWS SDKs' first two sources, in their order: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY`
 * (+ `AWS_SESSION_TOKEN`), else the `AWS_PROFILE` profile of the shared credentials file
 * (`AWS_SHARED_CREDENTIALS_FILE`, default `~/.aws/credentials`). Undefined when neither is set: Bedrock
 * is then not configured. A profile is read on first use and kept; a missing one fails that call.
 */
export function awsSettingsFromEnv(env: Env): AwsSettings | undefined {
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || DEFAULT_REGION;
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (accessKeyId && secretAccessKey) {
    const sessionToken = env.AWS_SESSION_TOKEN?.trim();
    const credential = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    return { region, credentials: () => Promise.resolve(credential) };
  }
  const profile = env.AWS_PROFILE?.trim();
  if (!profile) return undefined;
  const file = env.AWS_SHARED_CREDENTIALS_FILE?.trim() || join(homedir(), ".aws", "credentials");
  return { region, credentials: memoised(() => profileCredential(file, profile)) };
}

/** The adapter's credentials: an account's own (BYOK, the secret's JSON) or the gateway's. */
export function credentialsFor(
  apiKey: string | undefined,
  aws: AwsSettings | undefined,
): AwsSettings | undefined {
  if (apiKey === undefined) return aws;
  const parsed = parseAwsCredential(apiKey);
  // The keys service refuses a malformed secret when it is stored; one that is not is never sent.
  if (!parsed.ok) return undefined;
  const { region, ...credential } = parsed.credential;
  return {
    region: region ?? aws?.region ?? DEFAULT_REGION,
    credentials: () => Promise.resolve(credential),
  };
}

async function profileCredential(file: string, profile: string): Promise<AwsCredential> {
  // The config file is not read: only the credentials file holds static keys for a profile.
  const { credentialsFile } = await loadSharedConfigFiles({ filepath: file, configFilepath: file });
  const entry = credentialsFile[profile];
  const accessKeyId = entry?.aws_access_key_id;
  const secretAccessKey = entry?.aws_secret_access_key;
  if (!accessKeyId || !secretAccessKey)
    throw new Error(`AWS profile ${profile} has no aws_access_key_id/aws_secret_access_key in ${file}`);
  const sessionToken = entry.aws_session_token;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** One load shared by every call; a failed load is retried by the next call. */
function memoised(load: () => Promise<AwsCredential>): CredentialSource {
  let pending: Promise<AwsCredential> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
