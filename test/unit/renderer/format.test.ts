import { describe, expect, it } from 'vitest';
import { formatShort } from '../../../src-renderer/app/format.js';

describe('dates in dense tables', () => {
  const now = new Date(2026, 4, 20, 15, 30).getTime();

  it('always says the day: today, yesterday, a date this year, a date with its year', () => {
    expect(formatShort(new Date(2026, 4, 20, 9, 5, 7).getTime(), now)).toMatch(/^Today, .*9:05:07/);
    expect(formatShort(new Date(2026, 4, 19, 23, 59).getTime(), now)).toMatch(/^Yesterday, .*11:59/);
    const thisYear = formatShort(new Date(2026, 2, 3, 14, 2).getTime(), now);
    expect(thisYear).toMatch(/Mar/);
    expect(thisYear).toMatch(/\b3\b/);
    expect(thisYear).not.toMatch(/2026/);
    expect(formatShort(new Date(2025, 11, 31, 8, 0).getTime(), now)).toMatch(/Dec.*31.*2025/);
  });
});
