/** The gateway's error envelope as tests read it. */
export interface ErrorEnvelope {
  message: string;
  type: string;
  code?: string;
  metadata?: Record<string, unknown> & { excluded?: Record<string, unknown>[] };
}

export interface ReadError extends ErrorEnvelope {
  status: number;
  headers: Headers;
}

export async function readError(response: Response): Promise<ReadError> {
  const body = (await response.json()) as { error: ErrorEnvelope };
  return { status: response.status, headers: response.headers, ...body.error };
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
