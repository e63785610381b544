import { afterEach, describe, expect, it, vi } from 'vitest';
import { Rereads } from './quiet';
import { GatedRead } from './testing';

describe('rereads', () => {
  it('one at a time: asked for again and again during a read, one more read after it', async () => {
    const read = new GatedRead();
    read.shut();
    const rereads = new Rereads(read.run, 1, 3);
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
    const rereads = new Rereads(read.run, 1, 3);
    rereads.ask();
    await expect.poll(() => read.count).toBe(1);
    rereads.ask();
    await rereads.close();
    rereads.ask();
    expect(read.count).toBe(1);
  });

  describe('on a clock of its own', () => {
    afterEach(() => vi.useRealTimers());
    /** Two reads of `readMs`, each first waiting `beforeMs` for other work: how long after the first ended the second began waiting. */
    async function gapAfter(readMs: number, beforeMs: number): Promise<number> {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const begins: number[] = [];
      const ends: number[] = [];
      const rereads = new Rereads(
        async () => {
          await sleep(readMs);
          ends.push(performance.now());
        },
        10,
        9,
        async () => {
          begins.push(performance.now());
          await sleep(beforeMs);
        },
      );
      rereads.ask();
      await vi.advanceTimersByTimeAsync(10 + beforeMs + readMs);
      rereads.ask();
      await vi.advanceTimersByTimeAsync(20_000);
      await rereads.close();
      return (begins[1] as number) - (ends[0] as number);
    }

    it('waits nine times what the last read took after it, not counting what it waited for first', async () => {
      expect(await gapAfter(1000, 0)).toBe(9000);
      expect(await gapAfter(100, 2000)).toBe(900);
      expect(await gapAfter(0, 2000)).toBe(10);
    });
  });
});
