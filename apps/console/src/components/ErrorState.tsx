import { type ApiProblem, describeProblem } from "../api/errors";

const MAX_SHOWN = 20;

/** The API's own message, what to do about it (402/429/503), and a retry where retrying can help. */
export function ErrorState(props: { problem: ApiProblem; onRetry?: () => void }) {
  return (
    <div className="error-state" role="alert">
      <p>{describeProblem(props.problem)}</p>
      {/* What a refused request got wrong, as the API lists it (e.g. a catalogue import's problems). */}
      {props.problem.problems?.length ? (
        <ul className="error-problems">
          {props.problem.problems.slice(0, MAX_SHOWN).map((line, index) => (
            <li key={index}>{line}</li>
          ))}
          {props.problem.problems.length > MAX_SHOWN ? (
            <li>…and {props.problem.problems.length - MAX_SHOWN} more</li>
          ) : null}
        </ul>
      ) : null}
      {props.onRetry ? (
        <button type="button" className="button" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
