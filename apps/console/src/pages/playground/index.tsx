import { createGatewayClient } from "@gw/client";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { unwrap } from "../../api/client";
import { type ApiProblem, problemOf } from "../../api/errors";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { forgetPlaygroundKey, readPlaygroundKey } from "../../session/session";
import { Compare } from "./Compare";
import { EMPTY_REPLY, type ReplyState } from "./chat-stream";
import { ReplyMeta } from "./ReplyMeta";
import { describeRefusal } from "./refusal";
import { type ChatSettings, type ChatTurn, DEFAULT_SETTINGS, settingsProblem, streamChat } from "./send";
import "./playground.css";

interface Exchange {
  id: number;
  prompt: string;
  reply: ReplyState;
  status: "streaming" | "done" | "stopped" | "failed";
}

type ModelsState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ok"; ids: string[] }
  | { status: "error"; problem: ApiProblem };

/**
 * A chat against any model the API key may use, through the gateway itself, streamed token by token,
 * with each reply's cost. Inference needs an API key (not the management key): the secret of a key
 * created on the Keys page in this session is filled in.
 */
export function PlaygroundPage() {
  const [apiKey, setApiKey] = useState(() => readPlaygroundKey() ?? "");
  const models = useAllowedModels(apiKey);
  const [model, setModel] = useState("");
  const [message, setMessage] = useState("");
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [forgotten, setForgotten] = useState(false);
  const [settings, setSettings] = useState<ChatSettings>(DEFAULT_SETTINGS);
  const settingsError = settingsProblem(settings);
  const abort = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const streaming = exchanges.some((exchange) => exchange.status === "streaming");
  const ids = useId();

  useEffect(() => {
    if (models.status === "ok" && !models.ids.includes(model)) setModel(models.ids[0] ?? "");
  }, [models, model]);
  // The key kept from this session was refused as unknown (deleted, perhaps in another tab): forget it,
  // so the page stops opening on "invalid api key" until sign-out. A disabled or expired key is kept and
  // its refusal shown: it can be enabled again or given a new expiry, and its secret is never shown twice.
  useEffect(() => {
    if (
      models.status === "error" &&
      models.problem.status === 401 &&
      models.problem.reason === "key_not_found" &&
      apiKey === readPlaygroundKey()
    ) {
      forgetPlaygroundKey();
      setApiKey("");
      setForgotten(true);
    }
  }, [models, apiKey]);
  // Leaving the page stops a stream that is still running.
  useEffect(() => () => abort.current?.abort(), []);

  const update = (id: number, patch: Partial<Exchange>) =>
    setExchanges((list) =>
      list.map((exchange) => (exchange.id === id ? { ...exchange, ...patch } : exchange)),
    );

  async function send(event?: FormEvent) {
    event?.preventDefault();
    const prompt = message.trim();
    if (!prompt || !model || !apiKey || streaming || settingsError) return;
    const id = nextId.current++;
    const history: ChatTurn[] = exchanges.flatMap((exchange) =>
      exchange.reply.text
        ? [
            { role: "user" as const, content: exchange.prompt },
            { role: "assistant" as const, content: exchange.reply.text },
          ]
        : [],
    );
    setRefusal(null);
    setMessage("");
    setExchanges((list) => [...list, { id, prompt, reply: EMPTY_REPLY, status: "streaming" }]);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const reply = await streamChat({
        apiKey,
        model,
        messages: [...history, { role: "user", content: prompt }],
        settings,
        signal: controller.signal,
        onUpdate: (partial) => update(id, { reply: partial }),
      });
      update(id, { reply, status: reply.error ? "failed" : "done" });
    } catch (thrown) {
      if (controller.signal.aborted) {
        update(id, { status: "stopped" });
      } else {
        const problem = problemOf(thrown);
        setRefusal(describeRefusal(problem));
        // A refused request produced no reply: take it back out and give the message back to edit.
        setExchanges((list) => list.filter((exchange) => exchange.id !== id));
        setMessage(prompt);
      }
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  }

  function onMessageKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter starts a new line (as chat apps do).
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <>
      <PageHeader
        title="Playground"
        description="Chat with any model your API key may use, through the gateway, and see what each reply costs."
      />
      <form className="form playground-settings" onSubmit={(event) => event.preventDefault()}>
        <div className="form-grid">
          <div className="field">
            <label className="field-label" htmlFor={`${ids}-key`}>
              API key
            </label>
            <input
              id={`${ids}-key`}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(event) => {
                setForgotten(false);
                setApiKey(event.target.value.trim());
              }}
              aria-describedby={`${ids}-key-hint`}
            />
            <span className="field-hint" id={`${ids}-key-hint`}>
              Inference needs an API key, not the management key. A key created on the{" "}
              <Link to="/keys">Keys</Link> page in this session is filled in; it is kept in this tab only.
            </span>
          </div>
          <ModelPicker id={`${ids}-model`} state={models} value={model} onChange={setModel} />
        </div>
        <SettingsFields
          id={`${ids}-settings`}
          value={settings}
          problem={settingsError}
          onChange={setSettings}
        />
      </form>

      {forgotten ? (
        <p className="notice" role="status">
          The API key kept from this session is no longer accepted (it was deleted), so it was forgotten.
          Paste another API key, or create one on the <Link to="/keys">Keys</Link> page.
        </p>
      ) : null}
      {refusal ? (
        <div className="error-state" role="alert">
          <p>{refusal}</p>
        </div>
      ) : null}

      <Conversation exchanges={exchanges} apiKey={apiKey} />

      <form className="playground-composer" onSubmit={send}>
        <div className="field">
          <label className="field-label" htmlFor={`${ids}-message`}>
            Message
          </label>
          <textarea
            id={`${ids}-message`}
            rows={3}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            onKeyDown={onMessageKey}
            aria-describedby={`${ids}-message-hint`}
          />
          <span className="field-hint" id={`${ids}-message-hint`}>
            Enter sends; Shift+Enter starts a new line.
          </span>
        </div>
        <div className="form-actions">
          {exchanges.length > 0 && !streaming ? (
            <button type="button" className="button" onClick={() => setExchanges([])}>
              Clear conversation
            </button>
          ) : null}
          {streaming ? (
            <button type="button" className="button" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          ) : null}
          <button
            type="submit"
            className="button button-primary"
            disabled={streaming || !apiKey || !model || !message.trim() || settingsError !== undefined}
          >
            Send
          </button>
        </div>
      </form>

      <Compare
        apiKey={apiKey}
        models={models.status === "ok" ? models.ids : NO_MODELS}
        settings={settings}
        disabled={!apiKey || settingsError !== undefined}
      />
    </>
  );
}

const NO_MODELS: string[] = [];

/** System prompt, temperature and max tokens, folded away until wanted; blank keeps the model's default. */
function SettingsFields(props: {
  id: string;
  value: ChatSettings;
  problem: string | undefined;
  onChange: (settings: ChatSettings) => void;
}) {
  const { id, value } = props;
  const set = (field: keyof ChatSettings) => (text: string) => props.onChange({ ...value, [field]: text });
  return (
    <details className="playground-parameters">
      <summary>System prompt and parameters</summary>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-system`}>
          System prompt
        </label>
        <textarea
          id={`${id}-system`}
          rows={2}
          value={value.system}
          onChange={(event) => set("system")(event.target.value)}
        />
      </div>
      <div className="form-grid">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-temperature`}>
            Temperature
          </label>
          <input
            id={`${id}-temperature`}
            inputMode="decimal"
            placeholder="model default"
            value={value.temperature}
            onChange={(event) => set("temperature")(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-max-tokens`}>
            Max tokens
          </label>
          <input
            id={`${id}-max-tokens`}
            inputMode="numeric"
            placeholder="model default"
            value={value.maxTokens}
            onChange={(event) => set("maxTokens")(event.target.value)}
          />
        </div>
      </div>
      {props.problem ? (
        <p className="field-error" role="alert">
          {props.problem}
        </p>
      ) : null}
    </details>
  );
}

function ModelPicker(props: {
  id: string;
  state: ModelsState;
  value: string;
  onChange: (model: string) => void;
}) {
  const { state } = props;
  const hint =
    state.status === "idle"
      ? "Enter an API key to list the models it may use."
      : state.status === "loading"
        ? "Loading the key's models…"
        : state.status === "error"
          ? describeRefusal(state.problem)
          : state.ids.length === 0
            ? "This key may use no model: edit its allowed models on the Keys page."
            : `${state.ids.length} models this key may use.`;
  return (
    <div className="field">
      <label className="field-label" htmlFor={props.id}>
        Model
      </label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        disabled={state.status !== "ok" || state.ids.length === 0}
        aria-describedby={`${props.id}-hint`}
      >
        {state.status === "ok" ? (
          state.ids.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))
        ) : (
          <option value="">—</option>
        )}
      </select>
      <span
        className="field-hint"
        id={`${props.id}-hint`}
        role={state.status === "error" ? "alert" : undefined}
      >
        {hint}
      </span>
    </div>
  );
}

function Conversation(props: { exchanges: Exchange[]; apiKey: string }) {
  const log = useRef<HTMLElement>(null);
  const last = props.exchanges.at(-1);
  const lastText = last?.reply.text;
  const lastStatus = last?.status;
  // Keeps the newest text in view while it streams (the log scrolls, not the page).
  useEffect(() => {
    const element = log.current;
    if (element && (lastText !== undefined || lastStatus !== undefined))
      element.scrollTop = element.scrollHeight;
  }, [lastText, lastStatus]);
  return (
    <section ref={log} className="playground-log" role="log" aria-label="Conversation">
      {props.exchanges.length === 0 ? (
        <p className="muted">No messages yet. Pick a model, write a message and press Send.</p>
      ) : (
        props.exchanges.map((exchange) => (
          <article key={exchange.id} className="playground-exchange">
            <p className="playground-turn playground-user">
              <span className="visually-hidden">You: </span>
              {exchange.prompt}
            </p>
            <div className="playground-turn playground-assistant">
              <span className="visually-hidden">Assistant: </span>
              {exchange.reply.text ? <p className="playground-text">{exchange.reply.text}</p> : null}
              {exchange.status === "streaming" && !exchange.reply.text ? (
                <Loading label="Waiting for the model…" />
              ) : null}
              {exchange.status !== "streaming" ? (
                <ReplyMeta reply={exchange.reply} status={exchange.status} apiKey={props.apiKey} />
              ) : null}
            </div>
          </article>
        ))
      )}
    </section>
  );
}

/** The models the typed API key may use (`GET /api/v1/models/user` with that key), reloaded as it changes. */
function useAllowedModels(apiKey: string): ModelsState {
  const [state, setState] = useState<ModelsState>({ status: "idle" });
  useEffect(() => {
    if (!apiKey) {
      setState({ status: "idle" });
      return;
    }
    let current = true;
    setState({ status: "loading" });
    // Waits for typing to pause, so a pasted or typed key is asked about once.
    const timer = setTimeout(() => {
      const client = createGatewayClient({ baseUrl: window.location.origin, key: apiKey });
      unwrap(client.GET("/api/v1/models/user")).then(
        (body) => current && setState({ status: "ok", ids: body.data.map((model) => model.id).sort() }),
        (thrown: unknown) => current && setState({ status: "error", problem: problemOf(thrown) }),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [apiKey]);
  return state;
}
