import { type FormEvent, useEffect, useId, useState } from "react";
import { useSearchParams } from "react-router";
import { unwrap, useApi } from "../../api/client";
import { useQuery } from "../../api/use-query";
import { ErrorState } from "../../components/ErrorState";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { useSignedIn } from "../../session/session-context";
import { GenerationDetail } from "./GenerationDetail";
import { RecentGenerations } from "./RecentGenerations";
import { mayStillBeRecorded } from "./status";
import "./generations.css";

/**
 * Recent requests (a management key's account) and the lookup of one generation by id, which `?id=` in
 * the URL opens directly (the playground links each reply here).
 */
export function GenerationsPage() {
  const session = useSignedIn();
  const [search, setSearch] = useSearchParams();
  const openId = search.get("id") ?? "";

  const open = (id: string) => {
    const next = new URLSearchParams(search);
    if (id) next.set("id", id);
    else next.delete("id");
    setSearch(next);
  };

  return (
    <>
      <PageHeader
        title="Generations"
        description="Every request made with your keys: model, provider, tokens, cost, latency and each attempt."
      />
      <Lookup initial={openId} onLookUp={open} />
      {openId ? (
        <LookedUp id={openId} canReadKeys={session.kind === "management"} onClose={() => open("")} />
      ) : null}
      {session.kind === "management" ? (
        <RecentGenerations onOpen={open} />
      ) : (
        <p className="notice">
          Listing recent requests needs a management key; look a generation up by its id (the X-Generation-Id
          header of a response, or the id in a playground reply).
        </p>
      )}
    </>
  );
}

function Lookup(props: { initial: string; onLookUp: (id: string) => void }) {
  const [value, setValue] = useState(props.initial);
  const id = useId();
  useEffect(() => setValue(props.initial), [props.initial]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onLookUp(value.trim());
  };
  return (
    <search aria-label="Generation lookup">
      <form className="generations-lookup" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor={id}>
            Generation id
          </label>
          <input
            id={id}
            type="search"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <button type="submit" className="button button-primary" disabled={!value.trim()}>
          Look up
        </button>
      </form>
    </search>
  );
}

const NOT_FOUND_RETRIES = 5;

function LookedUp(props: { id: string; canReadKeys: boolean; onClose: () => void }) {
  const api = useApi();
  const { state, reload } = useQuery(
    () => unwrap(api.GET("/api/v1/generation", { params: { query: { id: props.id } } })),
    [api, props.id],
  );
  // A request is recorded a second or two after it finishes (the playground links it at once): a 404
  // is asked again a few times before it is shown.
  const [retries, setRetries] = useState(0);
  useEffect(() => setRetries(0), [props.id]);
  const waiting =
    state.status === "error" &&
    state.problem.status === 404 &&
    retries < NOT_FOUND_RETRIES &&
    mayStillBeRecorded(props.id);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      setRetries((count) => count + 1);
      reload();
    }, 1000);
    return () => clearTimeout(timer);
  }, [waiting, reload]);
  const keyName = useKeyName(props.canReadKeys ? state.data?.data.key_hash : undefined);
  if (state.status === "loading" || waiting) return <Loading label={`Looking up ${props.id}…`} />;
  if (state.status === "error") {
    const notYet = state.problem.status === 404;
    return (
      <div className="generation-detail">
        <ErrorState problem={state.problem} onRetry={reload} />
        {notYet ? (
          <p className="muted">
            A request is recorded within a second or two of finishing; a generation of another account is
            never shown.
          </p>
        ) : null}
        <button type="button" className="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    );
  }
  return (
    <>
      <GenerationDetail generation={state.data.data} keyName={keyName} />
      <button type="button" className="button" onClick={props.onClose}>
        Close details
      </button>
    </>
  );
}

/** The name of the key with this hash (`GET /api/v1/keys/{hash}`); undefined until known or if refused. */
function useKeyName(hash: string | undefined): string | undefined {
  const api = useApi();
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!hash || names[hash] !== undefined) return;
    let current = true;
    unwrap(api.GET("/api/v1/keys/{hash}", { params: { path: { hash } } })).then(
      (answer) => current && setNames((known) => ({ ...known, [hash]: answer.data.name })),
      // A deleted key or another account's: the hash is shown instead.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, hash, names]);
  return hash ? names[hash] : undefined;
}
