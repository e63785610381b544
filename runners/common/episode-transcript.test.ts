import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalArguments } from '../../shared/call-arguments';
import { firstDivergence } from '../../shared/divergence';
import { ADAPTERS } from '../index';
import { readCell } from '../read';
import { context, tempDir } from '../testing';
import { copyInstantDemo } from '../demo/testing';
import { episodeTranscript } from './episode-transcript';

const BARE = 'std_sdk_demo-model_bare_default';
const FULL = 'std_sdk_demo-model_full_default';
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  copyInstantDemo(tmp.path);
});
afterAll(() => tmp.remove());

/** A side's actions as its raw log holds them: each tool_call event's name and arguments, in order. */
const rawActions = (cell: string, episode: string) =>
  readFileSync(join(tmp.path, cell, 'episodes', episode.padStart(4, '0'), 'trajectory.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { ev: string; name?: string; args?: unknown })
    .filter((e) => e.ev === 'tool_call')
    .map((e) => `${e.name} ${canonicalArguments(JSON.stringify(e.args ?? {}))}`);

describe("a coding-agent episode as a transcript, and the first divergence of the demo's discordant episodes", () => {
  it("reads an episode's log as the stream's transcript: the task, the agent's messages, each call with its result, the end", async () => {
    const t = await episodeTranscript(ADAPTERS['coding-agent'], join(tmp.path, FULL), '0', context());
    expect(t?.items[0]).toMatchObject({ kind: 'input', role: 'task', text: 'Keep the pole upright until the episode ends.' });
    expect(t?.items.filter((i) => i.kind === 'call').length).toBe(rawActions(FULL, '0').length);
    expect(t?.items.at(-1)?.kind).toBe('outcome');
    expect(await episodeTranscript(ADAPTERS['coding-agent'], join(tmp.path, FULL), '9999', context())).toBeNull();
  });

  it('finds, for each discordant episode of the bare and full briefings, the first step their actions differ, as their raw logs say', async () => {
    const units = async (cell: string) => new Map((await readCell(join(tmp.path, cell), 'coding-agent', context())).units.map((u) => [u.id, u]));
    const [bare, full] = [await units(BARE), await units(FULL)];
    const discordant = [...bare.keys()].filter((id) => bare.get(id)?.scored && full.get(id)?.scored && bare.get(id)?.success !== full.get(id)?.success);
    expect(discordant.length).toBeGreaterThan(10);
    for (const id of discordant) {
      const [a, b] = [await episodeTranscript(ADAPTERS['coding-agent'], join(tmp.path, BARE), id, context()), await episodeTranscript(ADAPTERS['coding-agent'], join(tmp.path, FULL), id, context())];
      const divergence = firstDivergence(a?.items ?? [], b?.items ?? []);
      const [x, y] = [rawActions(BARE, id), rawActions(FULL, id)];
      let same = 0;
      while (same < x.length && same < y.length && x[same] === y[same]) same++;
      // One succeeded and the other failed: somewhere their actions differ.
      expect(divergence.step).toBe(same);
      expect(same).toBeLessThan(Math.max(x.length, y.length));
    }
  });

  it('skips a line of the log that is not JSON', async () => {
    const file = join(tmp.path, FULL, 'episodes', '0001', 'trajectory.jsonl');
    writeFileSync(file, `not json\n${readFileSync(file, 'utf8')}`);
    const t = await episodeTranscript(ADAPTERS['coding-agent'], join(tmp.path, FULL), '1', context());
    expect(t?.items[0]?.kind).toBe('input');
  });
});
