import type { Migrations } from "@gw/db";
import { accountsAndKeys } from "./20261122T120000_accounts_and_keys.js";
import { catalog } from "./20261122T120100_catalog.js";
import { providerCredentials } from "./20261122T130000_provider_credentials.js";

export const migrations: Migrations = {
  "20261122T120000_accounts_and_keys": accountsAndKeys,
  "20261122T120100_catalog": catalog,
  "20261122T130000_provider_credentials": providerCredentials,
};
