/**
 * The live heap of a Node process started with `--inspect=127.0.0.1:0`, through its inspector (Chrome
 * DevTools Protocol over WebSocket): `HeapProfiler.collectGarbage` (a full, non-incremental GC), then
 * `Runtime.getHeapUsage`'s `usedSize` — what a heap snapshot's nodes add up to, without writing one (a
 * snapshot of thousands of open streams takes minutes and hundreds of MB on a small machine).
 */
export async function liveHeapBytes(inspectorUrl: string, timeoutMs = 60_000): Promise<number> {
  const socket = new WebSocket(inspectorUrl);
  const replies = new Map<number, (value: Record<string, unknown>) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) replies.get(message.id)?.(message.result ?? {});
  });
  const call = (id: number, method: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector: ${method} timed out`)), timeoutMs);
      replies.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      socket.send(JSON.stringify({ id, method }));
    });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener(
      "error",
      () => reject(new Error(`inspector: cannot connect to ${inspectorUrl}`)),
      {
        once: true,
      },
    );
  });
  try {
    await call(1, "HeapProfiler.collectGarbage");
    const usage = await call(2, "Runtime.getHeapUsage");
    return Number(usage.usedSize);
  } finally {
    socket.close();
  }
}
