import { z } from "zod";

/**
 * An AWS credential as an account stores it for Amazon Bedrock (BYOK): the secret is this JSON text,
 * sealed like any provider key. `sessionToken` is for temporary (STS) credentials; `region` is where the
 * account's calls go when the endpoint names none (an ARN model id names its own).
 */
export interface AwsCredential {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly region?: string;
}

// AWS access key ids are 16–128 word characters (IAM's AccessKeyId type); regions are like `eu-west-3`.
const awsCredentialSchema = z.strictObject({
  accessKeyId: z.string().regex(/^\w{16,128}$/, "must be an AWS access key id"),
  secretAccessKey: z.string().min(1, "must not be empty").max(256),
  sessionToken: z.string().min(1).max(4_096).optional(),
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "must be an AWS region such as us-east-1")
    .optional(),
});

/** The credential in `text`, or why it is not one (never quoting the secret). */
export function parseAwsCredential(
  text: string,
): { ok: true; credential: AwsCredential } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: AWS_CREDENTIAL_SHAPE };
  }
  const parsed = awsCredentialSchema.safeParse(json);
  if (parsed.success) return { ok: true, credential: withoutUndefined(parsed.data) };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || "key";
  return { ok: false, problem: `${field}: ${issue?.message ?? "invalid"} (${AWS_CREDENTIAL_SHAPE})` };
}

export const AWS_CREDENTIAL_SHAPE =
  'expected JSON {"accessKeyId": "...", "secretAccessKey": "...", "sessionToken"?: "...", "region"?: "..."}';

function withoutUndefined(value: z.infer<typeof awsCredentialSchema>): AwsCredential {
  return {
    accessKeyId: value.accessKeyId,
    secretAccessKey: value.secretAccessKey,
    ...(value.sessionToken === undefined ? {} : { sessionToken: value.sessionToken }),
    ...(value.region === undefined ? {} : { region: value.region }),
  };
}
