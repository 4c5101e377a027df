// Traffic for the kill suites: several keys, three kinds of request (chat, streamed chat, embeddings)
// on the built-in demo provider, a few at a time, and what the client saw of each one.

export type RequestKind = "chat" | "stream" | "embeddings";

/**
 * What the client saw: `answered` = status 200 and the whole answer (a JSON body with usage, or a
 * stream through `[DONE]`); `cut` = the connection broke before that (the id is known when the headers
 * had arrived); `refused` = any other status (a defect here: nothing in this traffic is refusable).
 */
export interface Outcome {
  kind: RequestKind;
  secret: string;
  id: string | undefined;
  state: "answered" | "cut" | "refused";
  status?: number;
  detail?: string;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same kinds, keys and kill points. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const KINDS: readonly RequestKind[] = ["chat", "stream", "embeddings"];

export async function sendOne(
  baseUrl: string,
  kind: RequestKind,
  secret: string,
  n: number,
): Promise<Outcome> {
  const path = kind === "embeddings" ? "/v1/embeddings" : "/v1/chat/completions";
  const body =
    kind === "embeddings"
      ? { model: "demo/echo-embedding", input: `crash suite text ${n}` }
      : {
          model: "demo/echo",
          messages: [{ role: "user", content: `crash suite request ${n}` }],
          ...(kind === "stream" ? { stream: true } : {}),
        };
  let id: string | undefined;
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    id = response.headers.get("x-generation-id") ?? undefined;
    const text = await response.text();
    if (response.status !== 200)
      return { kind, secret, id, state: "refused", status: response.status, detail: text };
    const complete = kind === "stream" ? text.includes("data: [DONE]") : text.includes('"usage"');
    return { kind, secret, id, state: complete ? "answered" : "cut", status: 200 };
  } catch (error) {
    return { kind, secret, id, state: "cut", detail: error instanceof Error ? error.message : String(error) };
  }
}

export interface DriveOptions {
  baseUrl: string;
  secrets: readonly string[];
  random: () => number;
  /** Requests to start at most (fewer when the kill comes first). */
  requests: number;
  concurrency: number;
  /**
   * Called once, `delayMs` after the `after`-th request started (`on: "start"`, so requests are cut
   * in every phase) or after the `after`-th answer completed (`on: "answer"`: the moment between an
   * answer and its usage being stored). With `stopsTraffic` (the target serves the traffic: the
   * edge) no request starts after it; otherwise traffic goes on.
   */
  kill?: { on: "start" | "answer"; after: number; delayMs: number; run: () => void; stopsTraffic: boolean };
  /** Numbers requests across rounds so bodies differ. */
  offset: number;
}

/**
 * Runs `concurrency` workers that start requests until `requests` have started or the target was
 * killed, and returns every outcome (in-flight ones at the kill end as `cut`).
 */
export async function drive(options: DriveOptions): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let started = 0;
  let answered = 0;
  let killed = false;
  let fired: Promise<void> | undefined;
  const killNow = () => {
    if (!options.kill || fired) return;
    const { run, delayMs, stopsTraffic } = options.kill;
    fired = new Promise((resolve) =>
      setTimeout(() => {
        if (stopsTraffic) killed = true;
        run();
        resolve();
      }, delayMs),
    );
  };
  const plan = Array.from({ length: options.requests }, () => ({
    kind: KINDS[Math.floor(options.random() * KINDS.length)] as RequestKind,
    secret: options.secrets[Math.floor(options.random() * options.secrets.length)] as string,
  }));
  const worker = async () => {
    while (!killed && started < options.requests) {
      const index = started++;
      const { kind, secret } = plan[index] as { kind: RequestKind; secret: string };
      if (options.kill?.on === "start" && index + 1 === options.kill.after) killNow();
      const outcome = await sendOne(options.baseUrl, kind, secret, options.offset + index);
      outcomes.push(outcome);
      if (outcome.state === "answered" && ++answered === options.kill?.after && options.kill.on === "answer")
        killNow();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  // A round whose kill point was never reached (fewer answers than planned) ends with the kill.
  killNow();
  await fired;
  return outcomes;
}

export interface SteadyTraffic {
  /** Every outcome so far (the array grows while the traffic runs). */
  outcomes: Outcome[];
  /** Stops starting requests; resolves with every outcome once the ones in flight have ended. */
  stop(): Promise<Outcome[]>;
}

/**
 * Traffic that goes on until stopped, for the infrastructure-fault suites, where the target (a
 * database, a cache, the broker) is down for a while and comes back under it: `concurrency` workers,
 * each pausing `pauseMs` between its requests so the rate stays what a shared CI machine carries.
 */
export function steadyTraffic(options: {
  baseUrl: string;
  secrets: readonly string[];
  random: () => number;
  concurrency: number;
  pauseMs: number;
  offset: number;
}): SteadyTraffic {
  const outcomes: Outcome[] = [];
  let running = true;
  let started = 0;
  const worker = async () => {
    while (running) {
      const kind = KINDS[Math.floor(options.random() * KINDS.length)] as RequestKind;
      const secret = options.secrets[Math.floor(options.random() * options.secrets.length)] as string;
      outcomes.push(await sendOne(options.baseUrl, kind, secret, options.offset + started++));
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const workers = Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    outcomes,
    stop: async () => {
      running = false;
      await workers;
      return outcomes;
    },
  };
}
