/**
 * The seam through which the edge fetches a caller's media URL when the target format needs the bytes
 * (Gemini's inlineData, Bedrock's Converse, OpenAI chat's `file_data`). The guarded client (public
 * addresses only, size, time and content-type caps) is plugged in through the edge's deps; without it
 * every such fetch is refused, and the part is the caller's 400.
 */
export interface FetchedMedia {
  bytes: Uint8Array;
  contentType: string;
}
/** Fetches a caller's media URL on its behalf; throws MediaFetchRefused naming why. */
export type MediaFetcher = (url: string, allowedContentTypes: readonly string[]) => Promise<FetchedMedia>;
export class MediaFetchRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
export const refuseMediaFetch: MediaFetcher = async () => {
  throw new MediaFetchRefused("fetching media URLs is not enabled on this gateway");
};
