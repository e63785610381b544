import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { append } from '../../shared/arrays';
import { localHostContext, type HostContext } from '../place/context';
import { localSource } from './source';
import { ACTIVE_POLLS, FollowSet, QUIET_EVERY } from './follow-set';

let tmp: ReturnType<typeof tempDir>;
let follows: FollowSet;
let seen: string[];
beforeEach(() => {
  tmp = tempDir();
  seen = [];
  // This machine, with every watch missing its changes: what is read is what polls find.
  const unwatched: HostContext = { ...localHostContext(), source: (path) => ({ ...localSource(path), watch: undefined }) };
  follows = new FollowSet(unwatched, tmp.path);
});
afterEach(() => {
  follows.close();
  tmp.remove();
});

const line = (text: string) => `${JSON.stringify({ text })}\n`;
async function follow(file: string): Promise<void> {
  writeFileSync(join(tmp.path, file), line(`${file} 0`));
  await follows.follow(file, (chunk) => append(seen, chunk.records.map((r) => (r.value as { text: string }).text)));
}
/** Polls until `text` is read; how many polls that took. */
async function pollsUntil(text: string): Promise<number> {
  for (let polls = 1; polls <= QUIET_EVERY + ACTIVE_POLLS; polls++) {
    await follows.pollDue();
    if (seen.includes(text)) return polls;
  }
  throw new Error(`${text} was never read`);
}

describe('the polls of followed logs', () => {
  // `cellwatch tail` of a long run follows the logs of thousands of ended episodes: each polled every
  // second kept 6 % of a core busy with nothing written.
  it('poll a log that grows at each poll, one gone quiet at every fifteenth, and again at each once it grows', async () => {
    await follow('live.jsonl');
    await follow('ended.jsonl');
    for (let i = 0; i <= ACTIVE_POLLS; i++) {
      appendFileSync(join(tmp.path, 'live.jsonl'), line(`live ${i + 1}`));
      await follows.pollDue();
    }
    expect(seen).toContain(`live ${ACTIVE_POLLS + 1}`);
    appendFileSync(join(tmp.path, 'live.jsonl'), line('live next'));
    appendFileSync(join(tmp.path, 'ended.jsonl'), line('ended 1'));
    expect(await pollsUntil('live next')).toBe(1);
    const quiet = await pollsUntil('ended 1');
    expect(quiet).toBeGreaterThan(1);
    expect(quiet).toBeLessThanOrEqual(QUIET_EVERY);
    appendFileSync(join(tmp.path, 'ended.jsonl'), line('ended 2'));
    await follows.pollDue();
    appendFileSync(join(tmp.path, 'ended.jsonl'), line('ended 3'));
    expect(await pollsUntil('ended 3')).toBe(1);
  });
});
