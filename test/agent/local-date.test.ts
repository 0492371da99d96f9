// The system prompt's date names its weekday as the en-US locale does, without loading the locale data.
import { expect, test } from "bun:test";
import { localDate } from "../../src/agent/prompt-environment.ts";

test("each day of a week: YYYY-MM-DD (Weekday), the weekday as toLocaleDateString says it", () => {
  for (let d = 0; d < 7; d++) {
    const day = new Date(2026, 2, 14 + d, 12);
    const weekday = day.toLocaleDateString("en-US", { weekday: "long" });
    const ymd = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
    expect(localDate(day)).toBe(`${ymd} (${weekday})`);
  }
  expect(localDate(new Date(2026, 2, 14, 12))).toBe("2026-03-14 (Saturday)");
});
