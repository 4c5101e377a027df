import { type DependencyList, useCallback, useEffect, useRef, useState } from "react";
import { type ApiProblem, problemOf } from "./errors";

export type QueryState<T> =
  | { status: "loading"; data: T | undefined; problem: undefined }
  | { status: "ok"; data: T; problem: undefined }
  | { status: "error"; data: T | undefined; problem: ApiProblem };

export interface Query<T> {
  state: QueryState<T>;
  /** Loads again (after a change, or from an error's "Try again"); the old data stays shown meanwhile. */
  reload: () => void;
}

/**
 * Runs `load` on mount and whenever `deps` change, and keeps the latest answer. An answer that arrives
 * after a newer load started is dropped, so a slow old request cannot overwrite a newer one.
 */
export function useQuery<T>(load: () => Promise<T>, deps: DependencyList): Query<T> {
  const [state, setState] = useState<QueryState<T>>({
    status: "loading",
    data: undefined,
    problem: undefined,
  });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const run = useCallback(load, deps);

  useEffect(() => {
    const id = ++latest.current;
    setState((previous) => ({ status: "loading", data: previous.data, problem: undefined }));
    run().then(
      (data) => {
        if (id === latest.current) setState({ status: "ok", data, problem: undefined });
      },
      (thrown: unknown) => {
        if (id === latest.current)
          setState((previous) => ({ status: "error", data: previous.data, problem: problemOf(thrown) }));
      },
    );
  }, [run, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { state, reload };
}
