import { describe, expect, it } from "vitest";
import { activityCsv, csvFileName } from "./csv";
import type { ActivityItem } from "./series";

const item = (overrides: Partial<ActivityItem>): ActivityItem => ({
  date: "2026-11-02",
  model: "openai/gpt-4o",
  model_permaslug: "openai/gpt-4o",
  endpoint_id: "e1",
  provider_name: "openai",
  usage: 0.25,
  byok_usage_inference: 0,
  requests: 3,
  prompt_tokens: 100,
  completion_tokens: 20,
  reasoning_tokens: 0,
  ...overrides,
});

describe("activityCsv", () => {
  it("writes a header and one CRLF line per item, oldest day first", () => {
    const csv = activityCsv([
      item({}),
      item({ date: "2026-11-01", model: "demo/echo", provider_name: "demo" }),
    ]);
    expect(csv.split("\r\n")).toEqual([
      "date,model,provider_name,requests,usage,byok_usage_inference,prompt_tokens,completion_tokens,reasoning_tokens",
      "2026-11-01,demo/echo,demo,3,0.25,0,100,20,0",
      "2026-11-02,openai/gpt-4o,openai,3,0.25,0,100,20,0",
      "",
    ]);
  });

  it("quotes commas and quotes, and defuses spreadsheet formulas", () => {
    const csv = activityCsv([item({ model: 'a,"b"', provider_name: "=HYPERLINK(1)" })]);
    expect(csv.split("\r\n")[1]).toBe(`2026-11-02,"a,""b""",'=HYPERLINK(1),3,0.25,0,100,20,0`);
  });

  it("names the file after the range", () => {
    expect(csvFileName({ from: "2026-11-01", to: "2026-11-27" })).toBe("usage-2026-11-01-to-2026-11-27.csv");
  });
});
