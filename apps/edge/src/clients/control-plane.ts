import type { ServiceTokenIssuer } from "@gw/rpc";

/** Where the edge forwards the management routes (`/api/v1/*`) of each control-plane app. */
export interface ControlPlaneUrls {
  keysHttpUrl: string;
  billingHttpUrl: string;
  generationsHttpUrl: string;
  /** Signs the forwarded requests as the edge (the control plane answers nobody else); absent in tests. */
  issuer?: ServiceTokenIssuer | undefined;
}
