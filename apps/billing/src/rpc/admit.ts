import type { AdmitRequest, AdmitResponse } from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";

/** Admit: answered from the hot view (see Admission). */
export function admit(context: BillingContext) {
  return (request: AdmitRequest): Promise<AdmitResponse> => context.admission.admit(request);
}
