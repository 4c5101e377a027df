import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { clearSession, readSession, type Session, writeSession } from "./session";

interface SessionContextValue {
  session: Session | null;
  /** Why the last session ended (shown on the sign-in page), e.g. after a 401. */
  notice: string | null;
  signIn: (session: Session) => void;
  /** Ends the session; `notice` is shown on the sign-in page. */
  signOut: (notice?: string) => void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider(props: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(() => readSession());
  const [notice, setNotice] = useState<string | null>(null);

  const signIn = useCallback((next: Session) => {
    writeSession(next);
    setNotice(null);
    setSession(next);
  }, []);

  const signOut = useCallback((why?: string) => {
    clearSession();
    setNotice(why ?? null);
    setSession(null);
  }, []);

  const value = useMemo(() => ({ session, notice, signIn, signOut }), [session, notice, signIn, signOut]);
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error("useSession() outside <SessionProvider>");
  return value;
}

/** The signed-in session; only inside the signed-in layout, where one always exists. */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (session === null) throw new Error("useSignedIn() outside the signed-in layout");
  return session;
}
