import type { Migrations } from "@gw/db";
import { accountsAndKeys } from "./20261122T120000_accounts_and_keys.js";
import { catalog } from "./20261122T120100_catalog.js";
import { providerCredentials } from "./20261122T130000_provider_credentials.js";
import { providerCredentialsDisabled } from "./20261122T130100_provider_credentials_disabled.js";

export const migrations: Migrations = {
  "20261122T120000_accounts_and_keys": accountsAndKeys,
  "20261122T120100_catalog": catalog,
  "20261122T130000_provider_credentials": providerCredentials,
  "20261122T130100_provider_credentials_disabled": providerCredentialsDisabled,
};
