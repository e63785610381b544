import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/model';
import { tempDir } from '../../runners/testing';
import { Follower, localFollower } from './follower';
import { localSource } from './source';
import { append } from '../../shared/arrays';

let tmp: ReturnType<typeof tempDir>;
let file: string;
let seen: unknown[];
let problems: Problem[];
let follower: Follower;
beforeEach(() => {
  tmp = tempDir();
  file = join(tmp.path, 'log.jsonl');
  seen = [];
  problems = [];
  follower = localFollower(file, 'log.jsonl', (chunk) => {
    append(seen, chunk.records.map((r) => r.value));
    append(problems, chunk.problems);
  });
});
afterEach(() => tmp.remove());

describe('A follower of a local file that grows while it is read', () => {
  it('delivers each complete line once, holding a partial line until its newline', async () => {
    writeFileSync(file, '{"n":1}\n{"n":2}\n{"n"');
    await follower.poll();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    appendFileSync(file, ':3}\n');
    await follower.poll();
    await follower.poll();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(follower.offset).toBe(24);
  });

  it('coalesces concurrent polls without reading a line twice', async () => {
    writeFileSync(file, '');
    const writes = Array.from({ length: 200 }, (_, i) => i);
    await Promise.all(
      writes.map(async (i) => {
        appendFileSync(file, `{"n":${i}}\n`);
        await follower.poll();
      }),
    );
    await follower.poll();
    expect(seen).toEqual(writes.map((n) => ({ n })));
  });

  it('says when the file was truncated and reads it again from the start', async () => {
    writeFileSync(file, '{"n":1}\n{"n":2}\n');
    await follower.poll();
    truncateSync(file, 0);
    appendFileSync(file, '{"n":9}\n');
    await follower.poll();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 9 }]);
    expect(problems).toEqual([{ file: 'log.jsonl', message: expect.stringContaining('truncated'), severity: 'error' }]);
  });

  it('says when the file was replaced by another', async () => {
    writeFileSync(file, '{"n":1}\n');
    await follower.poll();
    writeFileSync(join(tmp.path, 'new.jsonl'), '{"n":1}\n{"n":2}\n{"n":3}\n');
    renameSync(join(tmp.path, 'new.jsonl'), file);
    await follower.poll();
    expect(seen).toEqual([{ n: 1 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    expect(problems[0]?.message).toContain('replaced');
  });

  it('starts near the end of a long file without reading it whole', async () => {
    writeFileSync(file, Array.from({ length: 10_000 }, (_, n) => `{"n":${n}}`).join('\n') + '\n');
    const tail = localFollower(file, 'log.jsonl', (chunk) => append(seen, chunk.records.map((r) => r.value)), { from: 'end', bytes: 100 });
    await tail.poll();
    expect(seen.length).toBeLessThan(15);
    expect(seen.at(-1)).toEqual({ n: 9999 });
  });

  it('reads a watched file again after a failed read, though no further change comes, and says the failure once', async () => {
    writeFileSync(file, '{"n":1}\n');
    const local = localSource(file);
    let failures = 2;
    let told = () => undefined as void;
    const flaky = new Follower(
      {
        stat: () => local.stat(),
        read: (position, length) => (failures-- > 0 ? Promise.reject(Object.assign(new Error('Input/output error'), { code: 'EIO' })) : local.read(position, length)),
        watch: (changed) => ((told = changed), () => undefined),
      },
      'log.jsonl',
      (chunk) => {
        append(seen, chunk.records.map((r) => r.value));
        append(problems, chunk.problems);
      },
    );
    flaky.watch();
    told();
    await expect.poll(() => seen, { interval: 200 }).toEqual([{ n: 1 }]);
    expect(problems).toEqual([{ file: 'log.jsonl', message: 'cannot be read: Input/output error', severity: 'error' }]);
    flaky.unwatch();
  });
});
