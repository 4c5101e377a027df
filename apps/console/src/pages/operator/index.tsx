// The operator pages (shown only for an operator credential; the app shell decides).
export { OperatorAccountsPage } from "./AccountsPage";
export { OperatorCatalogPage } from "./CatalogPage";
