import { type ApiProblem, describeProblem } from "../api/errors";

/** The API's own message, what to do about it (402/429/503), and a retry where retrying can help. */
export function ErrorState(props: { problem: ApiProblem; onRetry?: () => void }) {
  return (
    <div className="error-state" role="alert">
      <p>{describeProblem(props.problem)}</p>
      {props.onRetry ? (
        <button type="button" className="button" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
