import type { Migrations } from "@gw/db";
import { generations } from "./20261122T121000_generations.js";
import { messageBatches } from "./20261122T140000_message_batches.js";
import { activity } from "./20261123T170000_activity.js";
import { generationListing } from "./20261123T193000_generation_listing.js";
import { cacheDiscount } from "./20261123T194500_cache_discount.js";
import { endpointHealth } from "./20261127T173000_endpoint_health.js";
import { healthFromRecords } from "./20261127T210000_health_from_records.js";
import { callerAndError } from "./20261128T010000_caller_and_error.js";
import { generationMedia } from "./20261128T080000_generation_media.js";
import { retentionById } from "./20261128T080000_retention_by_id.js";
import { webSearch } from "./20261128T080000_web_search.js";
import { histogramsInMinutes } from "./20261128T083000_histograms_in_minutes.js";
import { webSearchCost } from "./20261128T110000_web_search_cost.js";

export const migrations: Migrations = {
  "20261122T121000_generations": generations,
  "20261122T140000_message_batches": messageBatches,
  "20261123T170000_activity": activity,
  "20261123T193000_generation_listing": generationListing,
  "20261123T194500_cache_discount": cacheDiscount,
  "20261127T173000_endpoint_health": endpointHealth,
  "20261127T210000_health_from_records": healthFromRecords,
  "20261128T010000_caller_and_error": callerAndError,
  "20261128T080000_generation_media": generationMedia,
  "20261128T080000_retention_by_id": retentionById,
  "20261128T080000_web_search": webSearch,
  "20261128T083000_histograms_in_minutes": histogramsInMinutes,
  "20261128T110000_web_search_cost": webSearchCost,
};
