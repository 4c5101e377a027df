import type { CredentialRow } from "../repositories/provider-credentials.js";

/** The BYOK credential as every route shows it: never the key, only its masked label. */
export interface CredentialJson {
  id: string;
  provider: string;
  name: string;
  label: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export function credentialView(row: CredentialRow): CredentialJson {
  return {
    id: row.id,
    provider: row.provider_id,
    name: row.name,
    label: row.label,
    position: row.position,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
