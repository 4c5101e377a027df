/**
 * The CTE that adds the records the insert returned (`inserted`) to the activity rollup, in the
 * statement that stores them: a redelivered event inserts nothing and so adds nothing, and a failed
 * batch leaves neither behind. Sums per rollup key in SQL (exact numeric), written in key order so
 * concurrent batches lock rollup rows in one order and cannot deadlock. A request no provider was tried
 * for has no endpoint to count under and is left out (its record still exists), and so is a proxied call
 * that names no model (`GET /openai/v1/models`: no tokens, no cost); app 0 is "no app", as a
 * key column cannot be null. BYOK usage is what the provider charged for inference on the account's own
 * key (OpenRouter's byok_usage_inference).
 */
export function activityFromInserted(inserted: string): string {
  return `activity as (
  insert into activity_daily as stored (account_id, day, model, provider, key_hash, app_id, requests,
    prompt_tokens, completion_tokens, reasoning_tokens, usage, byok_usage_inference)
  select account_id, (created_at at time zone 'UTC')::date, model, provider, key_hash, coalesce(app_id, 0),
    count(*), sum(prompt_tokens), sum(completion_tokens), sum(reasoning_tokens), sum(cost),
    coalesce(sum(upstream_inference_cost) filter (where is_byok), 0)
  from ${inserted}
  where provider <> '' and model <> ''
  group by 1, 2, 3, 4, 5, 6
  order by 1, 2, 3, 4, 5, 6
  on conflict (account_id, day, model, provider, key_hash, app_id) do update set
    requests = stored.requests + excluded.requests,
    prompt_tokens = stored.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = stored.completion_tokens + excluded.completion_tokens,
    reasoning_tokens = stored.reasoning_tokens + excluded.reasoning_tokens,
    usage = stored.usage + excluded.usage,
    byok_usage_inference = stored.byok_usage_inference + excluded.byok_usage_inference
  returning 1
)`;
}

/** The app a request names: its HTTP-Referer's origin (the apps table gives it an id). */
export function originOf(referer: string | null | undefined): string | undefined {
  return referer && URL.canParse(referer) ? new URL(referer).origin : undefined;
}
