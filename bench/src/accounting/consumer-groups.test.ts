import { describe, expect, it } from "vitest";
import { groupsReadingAll } from "./consumer-groups.js";

describe("consumer groups decoding every usage event", () => {
  const end = { 0: 400, 1: 300, 2: 300 };

  it("names the groups whose committed offsets cover the topic, sorted", () => {
    const groups = {
      generations: { 0: 400, 1: 300, 2: 300 },
      billing: { 0: 400, 1: 300, 2: 299 },
      health: { 0: 400, 1: 300, 2: 300 },
    };
    expect(groupsReadingAll(end, groups)).toEqual(["billing", "generations", "health"]);
  });

  it("leaves out a group that read only part of it, or none (-1)", () => {
    const groups = { billing: end, lagging: { 0: 400, 1: 300, 2: 0 }, none: { 0: -1, 1: -1, 2: -1 } };
    expect(groupsReadingAll(end, groups)).toEqual(["billing"]);
  });

  it("does not let an offset beyond the end make up for a partition not read", () => {
    expect(groupsReadingAll(end, { odd: { 0: 1000, 1: 0, 2: 0 } })).toEqual([]);
  });

  it("names none when nothing was published", () => {
    expect(groupsReadingAll({ 0: 0 }, { billing: { 0: 0 } })).toEqual([]);
  });
});
