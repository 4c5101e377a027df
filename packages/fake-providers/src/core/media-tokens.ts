// What the fakes count for media, each by its provider's published rule (cited where used). The fakes
// read only what a header gives: a PNG's size (its IHDR chunk), a WAV's byte rate, a PDF's page objects.

/** A base64 payload's decoded bytes (3 per 4 characters, less padding), without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** Width and height from a PNG's IHDR chunk (bytes 16-23); undefined for anything else. */
export function pngSize(data: string): { width: number; height: number } | undefined {
  const head = Buffer.from(data.slice(0, 44), "base64");
  if (head.length < 24 || head.toString("latin1", 1, 4) !== "PNG") return undefined;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/**
 * A clip's length in seconds: a WAV's data over its header's byte rate (bytes 28-31); other formats
 * at 128 kbit/s (16,000 bytes a second, a common MP3 rate).
 */
export function audioSeconds(data: string, format: string): number {
  const bytes = base64Bytes(data);
  if (format === "wav") {
    const head = Buffer.from(data.slice(0, 60), "base64");
    const byteRate =
      head.length >= 32 && head.toString("latin1", 0, 4) === "RIFF" ? head.readUInt32LE(28) : 0;
    if (byteRate > 0) return Math.max(0, bytes - 44) / byteRate;
  }
  return bytes / 16_000;
}

/** A PDF's pages: its `/Type /Page` objects (not `/Pages`); at least one. */
export function pdfPages(data: string): number {
  const text = Buffer.from(data, "base64").toString("latin1");
  return Math.max(1, (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length);
}

/** The base64 payload of a data: URL, or undefined. */
export function dataUrlPayload(url: unknown): { mediaType: string; data: string } | undefined {
  if (typeof url !== "string") return undefined;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1] as string, data: match[2] as string } : undefined;
}
