import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { problemOf } from "../../api/errors";
import { formatDuration } from "../../components/format";
import { Loading } from "../../components/Loading";
import { EMPTY_REPLY, type ReplyState } from "./chat-stream";
import { ReplyMeta } from "./ReplyMeta";
import { describeRefusal } from "./refusal";
import { type ChatSettings, streamChat } from "./send";

/** One side's answer: the reply, how it ended, and its latency as this browser saw it. */
interface Side {
  model: string;
  reply: ReplyState;
  status: "streaming" | "done" | "stopped" | "failed";
  /** Milliseconds from sending to the first text, and to the end of the stream. */
  firstTokenMs: number | undefined;
  totalMs: number | undefined;
  /** The API's refusal before any stream (e.g. a model the key may not use), with its advice. */
  refusal: string | undefined;
}

/**
 * The same message to two models at once, answers side by side, each with its cost (the stream's usage,
 * or the generation record's) and its latency: time to the first token and to the last, measured here.
 */
export function Compare(props: {
  apiKey: string;
  models: string[];
  settings: ChatSettings;
  disabled: boolean;
}) {
  const id = useId();
  const [left, setLeft] = useState("");
  const [right, setRight] = useState("");
  const [message, setMessage] = useState("");
  const [sides, setSides] = useState<Side[]>([]);
  const abort = useRef<AbortController | null>(null);
  const running = sides.some((side) => side.status === "streaming");
  const { models } = props;

  // Two different models by default, once the key's list is known.
  useEffect(() => {
    if (models.length === 0) return;
    if (!models.includes(left)) setLeft(models[0] ?? "");
    if (!models.includes(right)) setRight(models[1] ?? models[0] ?? "");
  }, [models, left, right]);
  useEffect(() => () => abort.current?.abort(), []);

  const update = (index: number, patch: Partial<Side>) =>
    setSides((list) => list.map((side, at) => (at === index ? { ...side, ...patch } : side)));

  async function run(index: number, model: string, prompt: string, signal: AbortSignal) {
    const started = performance.now();
    let firstTokenMs: number | undefined;
    try {
      const reply = await streamChat({
        apiKey: props.apiKey,
        model,
        messages: [{ role: "user", content: prompt }],
        settings: props.settings,
        signal,
        onUpdate: (partial) => {
          if (firstTokenMs === undefined && partial.text) {
            firstTokenMs = Math.round(performance.now() - started);
            update(index, { reply: partial, firstTokenMs });
          } else {
            update(index, { reply: partial });
          }
        },
      });
      const totalMs = Math.round(performance.now() - started);
      update(index, { reply, status: reply.error ? "failed" : "done", firstTokenMs, totalMs });
    } catch (thrown) {
      if (signal.aborted) update(index, { status: "stopped" });
      else update(index, { status: "failed", refusal: describeRefusal(problemOf(thrown)) });
    }
  }

  function compare(event: FormEvent) {
    event.preventDefault();
    const prompt = message.trim();
    if (!prompt || !left || !right || running || props.disabled) return;
    const controller = new AbortController();
    abort.current = controller;
    const fresh = (model: string): Side => ({
      model,
      reply: EMPTY_REPLY,
      status: "streaming",
      firstTokenMs: undefined,
      totalMs: undefined,
      refusal: undefined,
    });
    setSides([fresh(left), fresh(right)]);
    void Promise.all([run(0, left, prompt, controller.signal), run(1, right, prompt, controller.signal)]);
  }

  const picker = (label: string, value: string, onChange: (model: string) => void) => (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-${label}`}>
        {label}
      </label>
      <select
        id={`${id}-${label}`}
        value={value}
        disabled={models.length === 0}
        onChange={(event) => onChange(event.target.value)}
      >
        {models.length === 0 ? <option value="">—</option> : null}
        {models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="playground-compare">
      <h2 id={`${id}-title`}>Compare two models</h2>
      <form className="form playground-compare-form" onSubmit={compare}>
        {/* Not named "… model": the chat's own "Model" select must stay the only one by that name. */}
        <fieldset className="form-grid playground-compare-models">
          <legend>Models to compare</legend>
          {picker("First", left, setLeft)}
          {picker("Second", right, setRight)}
        </fieldset>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-message`}>
            Prompt for both
          </label>
          <textarea
            id={`${id}-message`}
            rows={2}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            aria-describedby={`${id}-hint`}
          />
          <span className="field-hint" id={`${id}-hint`}>
            Sent once to each model, with the settings above; not part of the chat.
          </span>
        </div>
        <div className="form-actions">
          {running ? (
            <button type="button" className="button" onClick={() => abort.current?.abort()}>
              Cancel comparison
            </button>
          ) : null}
          <button
            type="submit"
            className="button button-primary"
            disabled={running || props.disabled || !left || !right || !message.trim()}
          >
            Compare
          </button>
        </div>
      </form>
      {sides.length > 0 ? (
        <div className="playground-compare-results">
          {sides.map((side, index) => (
            <CompareSide
              key={`${index}-${side.model}`}
              side={side}
              label={index === 0 ? "First" : "Second"}
              apiKey={props.apiKey}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}

function CompareSide(props: { side: Side; label: string; apiKey: string }) {
  const { side } = props;
  return (
    <article className="playground-compare-side" aria-label={`${props.label}: ${side.model}`}>
      <h3>{side.model}</h3>
      {side.reply.text ? <p className="playground-text">{side.reply.text}</p> : null}
      {side.status === "streaming" && !side.reply.text ? <Loading label="Waiting for the model…" /> : null}
      {side.refusal ? (
        <p className="field-error" role="alert">
          {side.refusal}
        </p>
      ) : null}
      {side.status !== "streaming" && !side.refusal ? (
        <>
          <p className="playground-latency">
            Latency: first token {formatDuration(side.firstTokenMs)}, total {formatDuration(side.totalMs)}
          </p>
          <ReplyMeta reply={side.reply} status={side.status} apiKey={props.apiKey} />
        </>
      ) : null}
    </article>
  );
}
