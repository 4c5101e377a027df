/**
 * Money is exact: amounts are integer pico-dollars (1e-12 USD) held in bigint. One prompt token of a
 * cheap model costs about 1e-7 USD (100,000 pico), so per-token prices are whole numbers of pico and
 * sums never round. Floats appear only when rendering JSON.
 */
export type Pico = bigint;

export const PICO_PER_USD = 1_000_000_000_000n;
const PICO_DIGITS = 12;
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Parses a decimal USD string ("10", "0.00000015", "-1.5") into pico-dollars, exactly. */
export function usdToPico(usd: string | number): Pico {
  const text = typeof usd === "number" ? numberToPlainString(usd) : usd.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a decimal USD amount: ${JSON.stringify(usd)}`);
  const [, sign, whole = "0", fraction = ""] = match;
  if (fraction.length > PICO_DIGITS && /[1-9]/.test(fraction.slice(PICO_DIGITS))) {
    throw new RangeError(`USD amount has more precision than a pico-dollar: ${text}`);
  }
  const picoFraction = fraction.slice(0, PICO_DIGITS).padEnd(PICO_DIGITS, "0");
  const magnitude = BigInt(whole) * PICO_PER_USD + BigInt(picoFraction);
  return sign ? -magnitude : magnitude;
}

/** Renders pico-dollars as an exact decimal string with 12 fraction digits (Postgres numeric input). */
export function picoToDecimalString(pico: Pico): string {
  const negative = pico < 0n;
  const magnitude = negative ? -pico : pico;
  const whole = magnitude / PICO_PER_USD;
  const fraction = (magnitude % PICO_PER_USD).toString().padStart(PICO_DIGITS, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** Renders pico-dollars as a JSON number of USD. Only for output: the value may be rounded. */
export function picoToUsdNumber(pico: Pico): number {
  return Number(picoToDecimalString(pico));
}

/** Price per million tokens in USD (as providers list them) → price per token in pico-dollars. */
export function perMillionToPicoPerToken(usdPerMillion: string): Pico {
  const perMillion = usdToPico(usdPerMillion);
  if (perMillion % 1_000_000n !== 0n) {
    throw new RangeError(`price per million ${usdPerMillion} is not a whole pico-dollar per token`);
  }
  return perMillion / 1_000_000n;
}

export function sumPico(values: Iterable<Pico>): Pico {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite USD amount: ${value}`);
  // toFixed avoids exponent notation; 12 digits is the pico resolution.
  return value.toFixed(PICO_DIGITS);
}
