/** Where the edge forwards the management routes (`/api/v1/*`) of each control-plane app. */
export interface ControlPlaneUrls {
  keysHttpUrl: string;
  billingHttpUrl: string;
  generationsHttpUrl: string;
}
