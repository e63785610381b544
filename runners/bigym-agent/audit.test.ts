import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlCache } from '../common/jsonl-cache';
import { context, tempDir, writeTree } from '../testing';
import { bigymAgent } from './adapter';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const TRANSCRIPT = [
  '# move_plate',
  '$ python /home/me/runs/move_plate/sandbox/run_episodes.py --seeds 1,2',
  'cat ../../other_cell/policies/v004.py',
  'see https://example.org/docs and `policy.py`',
  'ls ~/.ssh "/etc/passwd"',
  'wrote ./policy.py',
  '',
].join('\n');

describe("bigym-agent's audit", () => {
  it('finds each line naming a path outside the sandbox, with its line; the sandbox, relative paths and URLs are not', async () => {
    const cell = join(tmp.path, 'move_plate');
    writeTree(cell, { 'run.json': { runner: 'bigym-agent', status: 'running' }, 'transcript.md': TRANSCRIPT });
    const findings = await bigymAgent.capabilities.audit?.read(cell, context());
    expect(findings?.map((f) => [f.file, f.line, f.path])).toEqual([
      ['transcript.md', 3, '../../other_cell/policies/v004.py'],
      ['transcript.md', 5, '~/.ssh'],
      ['transcript.md', 5, '/etc/passwd'],
    ]);
    const { detail } = await bigymAgent.read(cell, context(), { detail: true });
    expect(detail?.tables.find((t) => t.id === 'audit')?.rows.map((r) => r[0])).toEqual([3, 5, 5]);
  });

  it('reads a growing transcript on from where it was, never whole again', async () => {
    const cell = join(tmp.path, 'move_plate');
    writeTree(cell, { 'run.json': { runner: 'bigym-agent' }, 'transcript.md': TRANSCRIPT });
    const ctx = { ...context(), jsonl: new JsonlCache() };
    expect(await bigymAgent.capabilities.audit?.read(cell, ctx)).toHaveLength(3);
    appendFileSync(join(cell, 'transcript.md'), 'rm -rf /tmp/x\n');
    expect((await bigymAgent.capabilities.audit?.read(cell, ctx))?.map((f) => [f.line, f.path]).at(-1)).toEqual([7, '/tmp/x']);
    writeFileSync(join(cell, 'transcript.md'), 'nothing here\n');
    expect(await bigymAgent.capabilities.audit?.read(cell, ctx)).toEqual([]);
  });
});
