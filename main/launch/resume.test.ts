import { existsSync, linkSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nemoStandIn, restoreEnv, tempDir, writeTree } from '../../runners/testing';
import { episodesOfSpec } from '../../shared/launch';
import type { Core } from '../core';
import { closedAfterEach } from '../testing';

// A profile of the user's own that resumes as coding-agent does: it says which episodes it was given, and on
// a drain (SIGUSR1) prints its resume spec and exits.
const PROFILE = `name: resumable
format: coding-agent
gpu: false
drain: sentinel
resume_knob: episodes
knobs:
  - { key: root, label: Root, default: "" }
  - { key: episodes, label: Episodes, default: "" }
run_name: "ui_resumable_{stamp}"
command: [sh, -c, 'printf ''{"runner": "coding-agent"}'' > run.json; echo episodes=[{episodes}]; trap ''echo resume: --episodes 7,8; exit 0'' USR1; while true; do sleep 0.05; done']
cwd: "{cell}"
cell: "{root}/{name}"
`;

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
  writeTree(join(tmp.path, 'config'), { 'profiles/resumable.yaml': PROFILE });
});
const saved = { ...process.env };
afterEach(() => {
  restoreEnv(saved);
  tmp.remove();
});
const startCore = closedAfterEach();

const read = (file: string) => readFileSync(file, 'utf8');
/** Waits for `check`; the limit ends a hang, not a busy machine's slow run. */
const until = (check: () => boolean | Promise<boolean>) => expect.poll(check, { timeout: 60_000, interval: 25 }).toBe(true);
/** Until the launched run is seen to have ended. */
const ended = (core: Core, id: string) => until(async () => !['running', 'pending'].includes((await core.listRuns()).find((r) => r.id === id)?.state ?? 'running'));

describe('resuming a drained run', () => {
  it('reads the episode list out of what a drain printed, a whole command line, or the list alone, and refuses anything else', () => {
    expect(episodesOfSpec('resume: --episodes 7,8')).toBe('7,8');
    expect(episodesOfSpec("python coding-agent/stdrun.py run ui_x --nonstd --episodes '3,5-9,12'")).toBe('3,5-9,12');
    expect(episodesOfSpec('--episodes=4')).toBe('4');
    expect(episodesOfSpec(' 7, 8, 12 ')).toBe('7,8,12');
    expect(() => episodesOfSpec('all of them')).toThrow('no episode list in "all of them": paste what the drained run printed (--episodes 7,8) or the list itself (7,8,12)');
    expect(() => episodesOfSpec('--episodes 7;rm')).toThrow('no episode list');
  });

  it('relaunches those episodes under its name into its own cell, its logs appended; a running run and a link in its cell are refused', async () => {
    const core = await startCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false });
    const root = join(tmp.path, 'ui-runs');
    const first = await core.launchRun({ profile: 'resumable', values: { root }, label: 'again' });
    const cell = first.run.cell;
    const stdout = join(cell, 'stdout.log');
    await until(() => read(stdout).includes('episodes=[]'));
    expect(first.run.resumes).toBe('episodes');
    await expect(core.resumeRun(first.run.id, '7,8')).rejects.toThrow('ui_resumable_again is still running: drain or stop it first');

    const said = await core.drainRun(first.run.id);
    expect(said).toEqual(['resume: --episodes 7,8']);
    await ended(core, first.run.id);
    expect(existsSync(join(cell, 'DRAIN'))).toBe(true);
    const resumed = await core.resumeRun(first.run.id, said.join('\n'));
    expect(resumed.run).toMatchObject({ name: 'ui_resumable_again', cell, state: 'running' });
    expect(resumed.run.id).not.toBe(first.run.id);
    expect(resumed.cellId).toBe(first.cellId);
    // Its drain taken back: the resumed run would drain at once on the sentinel.
    expect(existsSync(join(cell, 'DRAIN'))).toBe(false);
    await until(() => read(stdout).includes('episodes=[7,8]'));
    expect(read(stdout).split('\n').filter(Boolean)).toEqual(['episodes=[]', 'resume: --episodes 7,8', 'episodes=[7,8]']);
    await core.stopRun(resumed.run.id);

    // A fresh launch of that name still never goes into a cell that exists.
    await expect(core.launchRun({ profile: 'resumable', values: { root }, label: 'again' })).rejects.toThrow(`${cell} exists already`);
    // Nor a file the run moved into its log's place (one name, but not the log the launch made).
    const moved = join(tmp.path, 'moved.txt');
    writeFileSync(moved, 'moved\n');
    const kept = readFileSync(stdout);
    renameSync(moved, stdout);
    await expect(core.resumeRun(resumed.run.id, '9')).rejects.toThrow(`${stdout} is not the file the launch made (another device or inode): a resume appends only to the run's own log`);
    expect(read(stdout)).toBe('moved\n');
    writeFileSync(moved, kept);
    // A log the run replaced with a link is never written through.
    rmSync(stdout);
    const elsewhere = join(tmp.path, 'elsewhere.txt');
    writeFileSync(elsewhere, 'mine\n');
    symlinkSync(elsewhere, stdout);
    await expect(core.resumeRun(resumed.run.id, '9')).rejects.toThrow(`${stdout} is a link, or not a folder: a resume goes on only in the run's own cell, and never writes through a link`);
    expect(read(elsewhere)).toBe('mine\n');
    // Nor a log the run replaced with a hard link to a file outside its cell.
    rmSync(stdout);
    linkSync(elsewhere, stdout);
    await expect(core.resumeRun(resumed.run.id, '9')).rejects.toThrow(`${stdout} has another name elsewhere (a hard link): a resume never appends to a file outside the run's cell`);
    expect(read(elsewhere)).toBe('mine\n');
  });

  it('resumes a NeMo Gym collection as NeMo Gym does: +resume_from_cache into the same collection, which runs again what it lacks', async () => {
    const bin = join(tmp.path, 'bin');
    nemoStandIn(bin);
    process.env.PATH = `${bin}:${process.env.PATH}`;
    const core = await startCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false });
    const values = { checkout: tmp.path, root: join(tmp.path, 'nemo-runs'), agent: 'math_with_judge_claude_code_agent' };
    const first = await core.launchRun({ profile: 'nemo-gym', values, label: 'cut' });
    expect(first.run.resumes).toBe('missing');
    await ended(core, first.run.id);
    const rows = () => read(join(first.run.cell, 'rollouts.jsonl')).split('\n').filter(Boolean).length;
    expect(rows()).toBe(3);
    // No list to give: the dry run shows the flag, and the resume goes on in the same collection.
    const plan = await core.planResume(first.run.id, '');
    expect(plan.command.at(-1)).toBe('+resume_from_cache=true');
    expect(plan.refused).toBeNull();
    const resumed = await core.resumeRun(first.run.id, '');
    expect(resumed.run).toMatchObject({ name: first.run.name, cell: first.run.cell });
    expect(resumed.cellId).toBe(first.cellId);
    await ended(core, resumed.run.id);
    expect(rows()).toBe(5);
    await until(async () => (await core.listCells()).find((c) => c.id === first.cellId)?.budget.used === 5);
    expect((await core.listCells()).find((c) => c.id === first.cellId)?.budget).toEqual({ unit: 'rollouts', used: 5, total: 5 });
  });

  it('is refused for a profile that takes no resume spec', async () => {
    const core = await startCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false });
    const launched = await core.launchRun({ profile: 'custom', values: { command: 'exit 0', root: join(tmp.path, 'ui-runs') }, label: 'once', override: true });
    expect(launched.run.resumes).toBeNull();
    await ended(core, launched.run.id);
    await expect(core.resumeRun(launched.run.id, '7')).rejects.toThrow('ui_custom_once was launched with profile custom, which takes no resume spec');
  });
});
