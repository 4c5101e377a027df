/** A polite status while something loads (announced once by screen readers, not a trap for focus). */
export function Loading(props: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? "Loading…"}
    </p>
  );
}
