import { describe, expect, it } from 'vitest';
import { keepOrder } from './stableOrder';

describe('a live list keeping its order', () => {
  it('keeps the rows where they were when their sort keys change', () => {
    expect(keepOrder(['a', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['a', 'b', 'c']);
  });

  it('drops rows gone, and puts a new one after the row before it in the sorted order', () => {
    expect(keepOrder(['a', 'b', 'c'], ['a', 'x', 'c', 'y'])).toEqual(['a', 'x', 'c', 'y']);
    expect(keepOrder(['b', 'a'], ['n', 'a', 'm', 'b'])).toEqual(['n', 'b', 'a', 'm']);
  });

  it('is the sorted order when nothing was shown yet', () => {
    expect(keepOrder([], ['c', 'a', 'b'])).toEqual(['c', 'a', 'b']);
  });
});
