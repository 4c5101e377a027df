/**
 * Prices arrive as OpenRouter's decimal strings in USD per token ("0.00000015"); people compare them per
 * million tokens ("$0.15"). The shift is done on the digits, not with floats, so 0.00000015 × 10⁶ is
 * exactly 0.15 and never 0.15000000000000002.
 */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Multiplies a non-negative decimal string by 10^places (places may be negative); undefined when it is
 * not one (e.g. "-1").
 */
export function shiftDecimal(value: string, places: number): string | undefined {
  const match = DECIMAL.exec(value.trim());
  if (!match) return undefined;
  // All digits, and where the point sits among them; moving the point is moving that index.
  const wholeDigits = match[1] ?? "0";
  const digits = `${wholeDigits}${match[2] ?? ""}`;
  const point = wholeDigits.length + places;
  const padded = point < 0 ? `${"0".repeat(-point)}${digits}` : digits.padEnd(point, "0");
  const at = Math.max(point, 0);
  const integer = (padded.slice(0, at) || "0").replace(/^0+(?=\d)/, "");
  const rest = padded.slice(at).replace(/0+$/, "");
  return rest === "" ? integer : `${integer}.${rest}`;
}

/**
 * A price the API sends as a JSON number (1.5e-7) as a plain decimal string ("0.00000015"), from the
 * number's shortest round-trip text, so no binary float digits leak in.
 */
export function decimalOf(value: number): string {
  if (!Number.isFinite(value) || value < 0) return "-1";
  const [mantissa = "0", exponent = "0"] = String(value).split("e");
  return shiftDecimal(mantissa, Number(exponent)) ?? "-1";
}

/** "$0.15" per million tokens; "free" for 0; "varies" for OpenRouter's -1 or anything unparsable. */
export function perMillionTokens(perToken: string): string {
  const shifted = shiftDecimal(perToken, 6);
  if (shifted === undefined) return "varies";
  if (/^0(\.0*)?$/.test(shifted)) return "free";
  return `$${shifted}`;
}

/** A price is shown only when the model has one (cache prices are "0" for models without caching). */
export function hasPrice(perToken: string | undefined): perToken is string {
  return perToken !== undefined && shiftDecimal(perToken, 0) !== undefined && !/^0*(\.0*)?$/.test(perToken);
}

/** Dollars per million tokens typed by an operator ("0.15") → USD per token for the admin API. */
export function perTokenFromPerMillion(perMillion: string): string | undefined {
  return shiftDecimal(perMillion, -6);
}
