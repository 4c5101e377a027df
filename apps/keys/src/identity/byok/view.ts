import type { CredentialRow } from "../repositories/provider-credentials.js";

/**
 * The BYOK credential as every route shows it: never the key, only its masked label. The field set is
 * OpenRouter's BYOK key object (its SDK validates it), plus our `position` and `updated_at`; fields for
 * features we do not have carry their neutral values.
 */
export interface CredentialJson {
  id: string;
  provider: string;
  name: string;
  label: string;
  disabled: boolean;
  position: number;
  sort_order: number;
  workspace_id: string;
  allowed_api_key_hashes: null;
  allowed_models: null;
  allowed_user_ids: null;
  declared_zdr: null;
  is_byok_only: boolean;
  is_fallback: boolean;
  is_required: boolean;
  created_at: string;
  updated_at: string;
}

export function credentialView(row: CredentialRow): CredentialJson {
  return {
    id: row.id,
    provider: row.provider_id,
    name: row.name,
    label: row.label,
    disabled: row.disabled,
    position: row.position,
    sort_order: row.position,
    workspace_id: row.account_id,
    allowed_api_key_hashes: null,
    allowed_models: null,
    allowed_user_ids: null,
    declared_zdr: null,
    is_byok_only: false,
    is_fallback: false,
    is_required: false,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
