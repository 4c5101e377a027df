import { useEffect, useId, useState } from "react";
import { ACTIVITY_DAYS, addDays, type DateRange, lastDays } from "./series";

const PRESETS = [1, 7, 14, 30] as const;

/** "Today / Last 7 / 14 / 30 days" or a custom From–To within the 30 days the API keeps. */
export function RangeControl(props: {
  today: string;
  range: DateRange;
  onChange: (range: DateRange) => void;
}) {
  const { today, range, onChange } = props;
  const id = useId();
  const preset = PRESETS.find((days) => {
    const candidate = lastDays(today, days);
    return candidate.from === range.from && candidate.to === range.to;
  });
  const earliest = addDays(today, -(ACTIVITY_DAYS - 1));
  return (
    <fieldset className="range-control">
      <legend>Period</legend>
      <label className="field">
        <span className="visually-hidden">Preset period</span>
        <select
          id={`${id}-preset`}
          value={preset === undefined ? "custom" : String(preset)}
          onChange={(event) => {
            const days = Number(event.target.value);
            if (Number.isInteger(days) && days > 0) onChange(lastDays(today, days));
          }}
        >
          {PRESETS.map((days) => (
            <option key={days} value={String(days)}>
              {days === 1 ? "Today" : `Last ${days} days`}
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
      </label>
      <DateField
        label="From"
        min={earliest}
        max={range.to}
        value={range.from}
        onCommit={(from) => onChange({ from, to: range.to })}
      />
      <DateField
        label="To"
        min={range.from}
        max={today}
        value={range.to}
        onCommit={(to) => onChange({ from: range.from, to })}
      />
    </fieldset>
  );
}

/**
 * A date input that keeps what is being typed as a draft and commits only a complete day within
 * [min, max]. Typing a year key by key makes the browser report 0002-…, 0020-…, 0202-… on the way to
 * 2026-…: committing (and clamping) those would collapse the range and reset the field mid-typing.
 * Leaving the field with a draft that is not a day in range puts the committed day back.
 */
function DateField(props: {
  label: string;
  min: string;
  max: string;
  value: string;
  onCommit: (day: string) => void;
}) {
  const { label, min, max, value, onCommit } = props;
  const [draft, setDraft] = useState(value);
  // A preset or the other field moved the committed day: show it.
  useEffect(() => setDraft(value), [value]);
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="date"
        min={min}
        max={max}
        value={draft}
        required
        onChange={(event) => {
          const typed = event.target.value;
          setDraft(typed);
          if (isDayWithin(typed, min, max) && typed !== value) onCommit(typed);
        }}
        onBlur={() => {
          if (!isDayWithin(draft, min, max)) setDraft(value);
        }}
      />
    </label>
  );
}

/** A complete `YYYY-MM-DD` day (four-digit year) from `min` to `max`; strings of days order as days. */
export function isDayWithin(day: string, min: string, max: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && day >= min && day <= max;
}
