import { useCallback } from "react";
import { NavLink, Outlet } from "react-router";
import { ApiProvider } from "../api/client";
import { SESSION_ENDED_MESSAGE } from "../api/errors";
import { navItems } from "../session/nav";
import { useSession, useSignedIn } from "../session/session-context";

/** The signed-in frame: skip link, header with the main nav and "Sign out", and the page. */
export function Layout() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const onUnauthorized = useCallback(() => signOut(SESSION_ENDED_MESSAGE), [signOut]);
  return (
    <ApiProvider credential={session.credential} onUnauthorized={onUnauthorized}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">Model Gateway</span>
        <nav aria-label="Main">
          <ul>
            {navItems(session).map((item) => (
              <li key={item.path}>
                <NavLink to={item.path}>{item.name}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="session-info">
          <span className="session-kind">{sessionLabel(session.kind, session.wallet?.accountId)}</span>
          <button type="button" className="button button-ghost" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <Outlet />
      </main>
    </ApiProvider>
  );
}

function sessionLabel(kind: string, walletAccount: string | undefined): string {
  if (kind === "wallet" && walletAccount) return `Wallet ${shortAccount(walletAccount)}`;
  return kind === "operator" ? "Operator" : "Management key";
}

/** `eip155:8453:0x1234…abcd` → `0x1234…abcd`. */
function shortAccount(accountId: string): string {
  const address = accountId.split(":").pop() ?? accountId;
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
