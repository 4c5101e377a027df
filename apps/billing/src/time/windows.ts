/**
 * Spend windows are UTC: the day starts at 00:00, the week on Monday 00:00, the month on the 1st
 * 00:00 (ARCHITECTURE "Consistency rules"). Each function returns the start of the window holding `at`.
 */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcWeekStart(at: Date): Date {
  const day = utcDayStart(at);
  // getUTCDay(): Sunday = 0, so Monday-based distance is (day + 6) % 7.
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 24 * 60 * 60 * 1000);
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export interface UsageWindows {
  day: Date;
  week: Date;
  month: Date;
}

export function usageWindows(at: Date): UsageWindows {
  return { day: utcDayStart(at), week: utcWeekStart(at), month: utcMonthStart(at) };
}
