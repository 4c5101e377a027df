import { useId } from "react";
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
      <label className="field">
        <span className="field-label">From</span>
        <input
          type="date"
          min={earliest}
          max={range.to}
          value={range.from}
          required
          onChange={(event) => event.target.value && onChange({ from: event.target.value, to: range.to })}
        />
      </label>
      <label className="field">
        <span className="field-label">To</span>
        <input
          type="date"
          min={range.from}
          max={today}
          value={range.to}
          required
          onChange={(event) => event.target.value && onChange({ from: range.from, to: event.target.value })}
        />
      </label>
    </fieldset>
  );
}
