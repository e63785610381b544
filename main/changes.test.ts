import { describe, expect, it } from 'vitest';
import { ChangedCells, ChangedPaths } from './changes';

describe('what a watch saw change, for the next read', () => {
  it('a cell: the paths until the read takes them, then none; anything, once told so or past 1,000 paths', () => {
    const changed = new ChangedPaths();
    changed.add('/r/c/a');
    changed.add('/r/c/a');
    changed.add('/r/c/b');
    expect(changed.take()).toEqual(['/r/c/a', '/r/c/b']);
    expect(changed.take()).toEqual([]);
    changed.anything();
    changed.add('/r/c/a');
    expect(changed.take()).toBeNull();
    for (let i = 0; i < 1000; i++) changed.add(`/r/c/${i}`);
    expect(changed.take()).toHaveLength(1000);
    for (let i = 0; i <= 1000; i++) changed.add(`/r/c/${i}`);
    expect(changed.take()).toBeNull();
    expect(new ChangedPaths(true).take()).toBeNull();
  });

  it('cells: each with its own paths, anything for one marked without a path, none once taken', () => {
    const cells = new ChangedCells();
    cells.mark('/r/a', '/r/a/x');
    cells.mark('/r/b', '/r/b/y');
    cells.mark('/r/b');
    cells.mark('/r/b', '/r/b/z');
    expect(cells.size).toBe(2);
    expect(cells.take()).toEqual([
      ['/r/a', ['/r/a/x']],
      ['/r/b', null],
    ]);
    expect(cells.size).toBe(0);
  });
});
