import type { ReactNode } from "react";
import { createBrowserRouter, Navigate, useLocation } from "react-router";
import { PageHeader } from "../components/PageHeader";
import { CreditsPage } from "../pages/credits";
import { GenerationsPage } from "../pages/generations";
import { KeysPage } from "../pages/keys";
import { ModelsPage } from "../pages/models";
import { OperatorAccountsPage, OperatorCatalogPage } from "../pages/operator";
import { PlaygroundPage } from "../pages/playground";
import { UsagePage } from "../pages/usage";
import { homePath, mayOpen } from "../session/nav";
import { SignInPage } from "../session/SignInPage";
import { useSession } from "../session/session-context";
import { Layout } from "./Layout";

/** The console's routes, under `/console` (history routing; the edge falls back to index.html). */
export function createConsoleRouter() {
  return createBrowserRouter(
    [
      { path: "/sign-in", element: <SignInPage /> },
      {
        path: "/",
        element: (
          <RequireSession>
            <Layout />
          </RequireSession>
        ),
        children: [
          { index: true, element: <Home /> },
          { path: "usage", element: <Allowed page={<UsagePage />} /> },
          { path: "credits", element: <Allowed page={<CreditsPage />} /> },
          { path: "keys", element: <Allowed page={<KeysPage />} /> },
          { path: "generations", element: <Allowed page={<GenerationsPage />} /> },
          { path: "models", element: <Allowed page={<ModelsPage />} /> },
          { path: "playground", element: <Allowed page={<PlaygroundPage />} /> },
          { path: "operator/accounts", element: <Allowed page={<OperatorAccountsPage />} /> },
          { path: "operator/catalog", element: <Allowed page={<OperatorCatalogPage />} /> },
          { path: "*", element: <NotFound /> },
        ],
      },
    ],
    { basename: "/console" },
  );
}

/** Signed out (never signed in, signed out, or a 401 ended the session): to the sign-in page. */
function RequireSession(props: { children: ReactNode }) {
  const { session } = useSession();
  const { pathname, search } = useLocation();
  // The page asked for (a deep link, e.g. /generations?id=…) is passed on, for after the sign-in.
  if (!session) return <Navigate to="/sign-in" replace state={{ from: `${pathname}${search}` }} />;
  return props.children;
}

function Home() {
  const { session } = useSession();
  return session ? <Navigate to={homePath(session)} replace /> : null;
}

/** A page the credential cannot use (e.g. Keys for an operator token) sends it to its first page. */
function Allowed(props: { page: ReactNode }) {
  const { session } = useSession();
  const { pathname } = useLocation();
  if (session && !mayOpen(session, pathname.replace(/\/+$/, "")))
    return <Navigate to={homePath(session)} replace />;
  return props.page;
}

function NotFound() {
  return <PageHeader title="Page not found" description="There is no console page at this address." />;
}
