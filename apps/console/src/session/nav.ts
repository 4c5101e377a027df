import type { Session } from "./session";

export interface NavItem {
  /** The link's text, and the `<h1>` of its page. */
  name: string;
  path: string;
}

const ACCOUNT_PAGES: NavItem[] = [
  { name: "Usage", path: "/usage" },
  { name: "Credits", path: "/credits" },
  { name: "Keys", path: "/keys" },
  { name: "Generations", path: "/generations" },
  { name: "Models", path: "/models" },
  { name: "Playground", path: "/playground" },
];

/** A wallet's JWT cannot call the management routes (keys, credits, activity): see the README. */
const WALLET_PAGES: NavItem[] = [
  { name: "Usage", path: "/usage" },
  { name: "Generations", path: "/generations" },
  { name: "Models", path: "/models" },
  { name: "Playground", path: "/playground" },
];

const OPERATOR_PAGES: NavItem[] = [
  { name: "Accounts", path: "/operator/accounts" },
  { name: "Catalogue", path: "/operator/catalog" },
];

/** The pages a session may open, in nav order. */
export function navItems(session: Session): NavItem[] {
  const account = session.kind === "wallet" ? WALLET_PAGES : session.hasAccount ? ACCOUNT_PAGES : [];
  return [...account, ...(session.isOperator ? OPERATOR_PAGES : [])];
}

/** Where a session lands after sign-in or on `/console/`. */
export function homePath(session: Session): string {
  return navItems(session)[0]?.path ?? "/usage";
}

export function mayOpen(session: Session, path: string): boolean {
  return navItems(session).some((item) => item.path === path);
}
