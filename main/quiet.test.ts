import { afterEach, describe, expect, it, vi } from 'vitest';
import { Rereads } from './quiet';
import { GatedRead } from './testing';

describe('rereads', () => {
  it('one at a time: asked for again and again during a read, one more read after it', async () => {
    const read = new GatedRead();
    read.shut();
    const rereads = new Rereads(read.run, 1);
    rereads.ask();
    await expect.poll(() => read.count).toBe(1);
    // Each ask well apart from the last, as changes written one by one are.
    for (let i = 0; i < 5; i++) {
      rereads.ask();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(read.count).toBe(1);
    read.open();
    await expect.poll(() => read.count).toBe(2);
    await rereads.close();
    expect(read.count).toBe(2);
  });

  it('closed while it waits for the next read, reads no more', async () => {
    const read = new GatedRead();
    const rereads = new Rereads(read.run, 1);
    rereads.ask();
    await expect.poll(() => read.count).toBe(1);
    rereads.ask();
    await rereads.close();
    rereads.ask();
    expect(read.count).toBe(1);
  });

  describe('on a clock of its own', () => {
    afterEach(() => vi.useRealTimers());
    /** Reads that each take a second, and say they took `says` ms (undefined: nothing); when the second read started after the first ended. */
    async function gapAfter(says: number | undefined): Promise<number> {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const starts: number[] = [];
      const rereads = new Rereads(async () => {
        starts.push(performance.now());
        await new Promise((r) => setTimeout(r, 1000));
        return says;
      }, 10);
      rereads.ask();
      await vi.advanceTimersByTimeAsync(1010);
      rereads.ask();
      await vi.advanceTimersByTimeAsync(10_000);
      await rereads.close();
      return (starts[1] as number) - ((starts[0] as number) + 1000);
    }

    it('waits three times what a read took after it, or what the read says it took (a wait for other work left out)', async () => {
      expect(await gapAfter(undefined)).toBe(3000);
      expect(await gapAfter(100)).toBe(300);
      expect(await gapAfter(0)).toBe(10);
    });
  });
});
