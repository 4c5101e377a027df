const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const text = (value: string): Uint8Array => encoder.encode(value);
export const read = (message: { value: Uint8Array }): string => decoder.decode(message.value);

export async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
