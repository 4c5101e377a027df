/** The gateway's error envelope as tests read it (OpenRouter's: `code` is the HTTP status). */
export interface ErrorEnvelope {
  message: string;
  type: string;
  code: number;
  metadata?: Record<string, unknown> & { reason?: string; excluded?: Record<string, unknown>[] };
}

export interface ReadError extends ErrorEnvelope {
  status: number;
  headers: Headers;
  /** `metadata.reason`, the gateway's reason code, lifted for short assertions. */
  reason: string | undefined;
}

/** Reads an OpenAI-format error; fails unless `error.code` is the response's status as a number. */
export async function readError(response: Response): Promise<ReadError> {
  const body = (await response.json()) as { error: ErrorEnvelope };
  if (body.error.code !== response.status)
    throw new Error(`error.code ${JSON.stringify(body.error.code)} is not the status ${response.status}`);
  return {
    status: response.status,
    headers: response.headers,
    ...body.error,
    reason: body.error.metadata?.reason,
  };
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
