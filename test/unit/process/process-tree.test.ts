import { describe, expect, it } from 'vitest';
import { treeMembers, type ProcessEntry } from '../../../src-main/core/process/process-tree.js';

const entry = (pid: number, ppid: number, pgid: number, extra: Partial<ProcessEntry> = {}): ProcessEntry => ({
  pid,
  ppid,
  pgid,
  zombie: false,
  started: `t${pid}`,
  ...extra,
});

// 1 init · 100 the tool (leads group 100) · 101 its child · 102 a grandchild that called setsid ·
// 103 a great-grandchild under it · 104 a member of the group whose parent died · 200 an unrelated process.
const table: ProcessEntry[] = [
  entry(1, 0, 1),
  entry(100, 1, 100),
  entry(101, 100, 100),
  entry(102, 101, 102),
  entry(103, 102, 102),
  entry(104, 1, 100),
  entry(200, 1, 200),
  entry(201, 200, 200),
];

describe('treeMembers', () => {
  it('finds the group and every descendant, including those that left the group', () => {
    expect([...treeMembers(table, 100).keys()].sort()).toEqual([100, 101, 102, 103, 104]);
  });

  it('finds the descendants of group members once the tool itself is gone', () => {
    const withoutTool = table.filter((e) => e.pid !== 100).map((e) => (e.ppid === 100 ? { ...e, ppid: 1 } : e));
    expect([...treeMembers(withoutTool, 100).keys()].sort()).toEqual([101, 102, 103, 104]);
  });

  it('keeps known members that were re-parented after their parent died', () => {
    const known = treeMembers(table, 100);
    // 101 and 100 died; 102 went to init and is no longer reachable by walking parents.
    const later = [entry(1, 0, 1), entry(102, 1, 102), entry(103, 102, 102), entry(200, 1, 200)];
    expect([...treeMembers(later, 100).keys()]).toEqual([]);
    expect([...treeMembers(later, 100, known).keys()].sort()).toEqual([102, 103]);
  });

  it('does not take a recycled pid for a known member', () => {
    const known = new Map([[102, 't102']]);
    const recycled = [entry(1, 0, 1), entry(102, 1, 102, { started: 'later' })];
    expect(treeMembers(recycled, 100, known).size).toBe(0);
  });

  it('counts zombies as dead and does not walk through them', () => {
    const zombies = table.map((e) => (e.pid === 101 ? { ...e, zombie: true } : e));
    expect([...treeMembers(zombies, 100).keys()].sort()).toEqual([100, 104]);
  });

  it('never includes the calling process', () => {
    const self = [entry(process.pid, 1, 100)];
    expect(treeMembers(self, 100).size).toBe(0);
  });
});
