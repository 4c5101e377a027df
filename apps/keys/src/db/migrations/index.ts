import type { Migrations } from "@gw/db";
import { accountsAndKeys } from "./20261122T120000_accounts_and_keys.js";
import { catalog } from "./20261122T120100_catalog.js";
import { providerCredentials } from "./20261122T130000_provider_credentials.js";
import { providerCredentialsDisabled } from "./20261122T130100_provider_credentials_disabled.js";
import { walletAccounts } from "./20261123T110000_wallet_accounts.js";
import { operatorPrices } from "./20261123T140000_operator_prices.js";
import { catalogOperatorLayer } from "./20261123T170000_catalog_operator_layer.js";
import { endpointHealth } from "./20261123T171500_endpoint_health.js";
import { accountsListing } from "./20261123T195500_accounts_listing.js";
import { dropEndpointHealth } from "./20261127T173000_drop_endpoint_health.js";
import { providerCredentialsKeyId } from "./20261128T003000_provider_credentials_key_id.js";
import { accountLifecycle } from "./20261128T010000_account_lifecycle.js";
import { endpointInputModalities } from "./20261128T073000_endpoint_input_modalities.js";
import { endpointAudioPrice } from "./20261128T074500_endpoint_audio_price.js";
import { endpointAudioOutputPrice } from "./20261128T110000_endpoint_audio_output_price.js";

export const migrations: Migrations = {
  "20261122T120000_accounts_and_keys": accountsAndKeys,
  "20261122T120100_catalog": catalog,
  "20261122T130000_provider_credentials": providerCredentials,
  "20261122T130100_provider_credentials_disabled": providerCredentialsDisabled,
  "20261123T110000_wallet_accounts": walletAccounts,
  "20261123T140000_operator_prices": operatorPrices,
  "20261123T170000_catalog_operator_layer": catalogOperatorLayer,
  "20261123T171500_endpoint_health": endpointHealth,
  "20261123T195500_accounts_listing": accountsListing,
  "20261127T173000_drop_endpoint_health": dropEndpointHealth,
  "20261128T003000_provider_credentials_key_id": providerCredentialsKeyId,
  "20261128T010000_account_lifecycle": accountLifecycle,
  "20261128T073000_endpoint_input_modalities": endpointInputModalities,
  "20261128T074500_endpoint_audio_price": endpointAudioPrice,
  "20261128T110000_endpoint_audio_output_price": endpointAudioOutputPrice,
};
