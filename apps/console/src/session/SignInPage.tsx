import { type FormEvent, useEffect, useRef, useState } from "react";
import { Navigate, useLocation } from "react-router";
import { consoleClient } from "../api/client";
import { describeProblem, problemFromNetworkError, problemFromResponse } from "../api/errors";
import { detectCredential } from "./detect";
import { homePath, mayOpen } from "./nav";
import { rememberPlaygroundKey } from "./session";
import { useSession } from "./session-context";
import { browserWallet, signInMessage, walletErrorMessage } from "./wallet";

export function SignInPage() {
  const { session, notice, signIn } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const wallet = browserWallet();
  const from = requestedPage(useLocation().state);

  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);

  // Back to the page that was asked for before the sign-in, when this credential may open it.
  if (session)
    return (
      <Navigate to={from && mayOpen(session, from.split("?")[0] ?? "") ? from : homePath(session)} replace />
    );

  async function onManagementKey(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const credential = String(new FormData(form).get("credential") ?? "").trim();
    if (!credential) {
      setError("Enter a management key.");
      return;
    }
    setBusy(true);
    setError(null);
    const detection = await detectCredential(credential, window.location.origin);
    setBusy(false);
    if (detection.ok) {
      form.reset();
      signIn(detection.session);
    } else setError(detection.message);
  }

  async function onWallet() {
    if (!wallet) return;
    setBusy(true);
    setError(null);
    try {
      const proof = await signInMessage(wallet, window.location);
      const result = await consoleClient("").POST("/v1/x402/auth", { body: proof });
      if (!result.data) {
        setError(
          describeProblem(problemFromResponse(result.response.status, result.response.headers, result.error)),
        );
        return;
      }
      const { jwt, account_id, expires_at } = result.data;
      // The playground sends the wallet's JWT as its API key (inference accepts it; see the README).
      rememberPlaygroundKey(jwt);
      signIn({
        credential: jwt,
        kind: "wallet",
        hasAccount: true,
        isOperator: false,
        wallet: { accountId: account_id, expiresAt: expires_at },
      });
    } catch (thrown) {
      setError(
        thrown instanceof TypeError
          ? describeProblem(problemFromNetworkError(thrown))
          : walletErrorMessage(thrown),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1 ref={heading} tabIndex={-1}>
        Sign in
      </h1>
      <p className="page-description">
        Sign in to the Model Gateway console with a management key (or the operator's token). The key stays in
        this tab's session storage and is forgotten when you sign out or close the tab.
      </p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <form className="form" onSubmit={onManagementKey} aria-busy={busy}>
        <label className="field">
          <span className="field-label">Management key</span>
          <input name="credential" type="password" autoComplete="off" spellCheck={false} required />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          Sign in
        </button>
      </form>
      {wallet ? (
        <form
          className="form wallet-form"
          onSubmit={(event) => {
            event.preventDefault();
            void onWallet();
          }}
        >
          <p>Or sign in with the Ethereum wallet in this browser (you sign a message; nothing is paid).</p>
          <button type="submit" className="button" disabled={busy}>
            Sign in with wallet
          </button>
        </form>
      ) : null}
      {error ? (
        <p className="error-state" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}

/** The console path a signed-out visit asked for (router state `{from}`), if it is one. */
function requestedPage(state: unknown): string | undefined {
  if (typeof state !== "object" || state === null) return undefined;
  const from = (state as { from?: unknown }).from;
  // A path inside the console only (never `//host` or a URL): the router's basename is added to it.
  return typeof from === "string" && /^\/(?!\/)/.test(from) ? from : undefined;
}
