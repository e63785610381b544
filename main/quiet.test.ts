import { describe, expect, it } from 'vitest';
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
});
