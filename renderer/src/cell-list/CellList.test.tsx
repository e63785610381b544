import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CellState, CellSummary } from '../../../shared/model';
import { AppProvider, useApp } from '../context';
import { fakeTransport, type FakeTransport } from '../testing';
import { CellList } from './CellList';

const ROOT = '/runs';

function cell(name: string, state: CellState, format: CellSummary['format'] = 'coding-agent'): CellSummary {
  return {
    id: `local:${ROOT}/${name}`,
    host: 'local',
    path: `${ROOT}/${name}`,
    root: ROOT,
    format,
    name,
    board: null,
    board_reasons: [],
    boardName: null,
    rivals: [],
    excludedBy: {},
    benchmarks: [],
    state,
    budget: { unit: 'episodes', used: 1, total: 4 },
    episodes: { planned: 4000, ended: 1234, scored: 1, excluded: 0, successes: 1 },
    success_rate: 1,
    tokens: { input: 1_200_000, cached_input: null, output: 300_000, reasoning: null },
    cost_usd_estimate: 3.12,
    cost_usd_billed: null,
    cost_source: 'prices.yml',
    runnerCostUsd: null,
    problems: [],
    labels: { harness: null, model: null, condition: null, effort: null },
    changedAt: null,
    evaluatedVersions: [],
    vramPeakMib: null,
    policyVersions: [],
    agents: [],
    pausedUntil: null,
    running: [],
    versionScores: {},
    capabilities: { versions: false, episodeStreams: true, exclusions: false, vram: false, transcripts: false, unit: 'episode' },
  };
}

function Loaded() {
  const loaded = useApp((s) => s.loaded);
  return loaded ? <CellList /> : null;
}

async function show(transport: FakeTransport) {
  render(
    <AppProvider transport={transport}>
      <Loader />
      <Loaded />
    </AppProvider>,
  );
  await screen.findByRole('table', { name: 'Cells' });
}

function Loader() {
  const load = useApp((s) => s.load);
  const loaded = useApp((s) => s.loaded);
  if (!loaded) void load();
  return null;
}

const names = () => within(screen.getByRole('table', { name: 'Cells' })).getAllByRole('button').map((b) => b.getAttribute('aria-label')).filter(Boolean);
const headers = () => within(screen.getByRole('table', { name: 'Cells' })).getAllByRole('columnheader').map((h) => h.textContent?.replace(/ [▴▾]$/, ''));

let transport: FakeTransport;
beforeEach(() => {
  localStorage.clear();
  const cells = [cell('alpha', 'running'), cell('bravo', 'finished'), cell('charlie_with_a_rather_long_name_that_goes_on', 'stale', 'evopolicygym')];
  transport = fakeTransport({
    getInfo: async () => ({}) as never,
    listRoots: async () => [],
    listCells: async () => cells,
    gpuStatus: async () => ({ available: false, problems: [], history: [] }),
    listHosts: async () => [],
    listAlerts: async () => ({ alerts: [], readUntil: 0, settings: {} }) as never,
  });
});
afterEach(cleanup);

describe('the cell list while cells change', () => {
  it('keeps every row where it was, says the order is stale, and sorts again when asked', async () => {
    await show(transport);
    // Sorted by state: running, stale, finished.
    expect(names()).toEqual(['alpha', 'charlie_with_a_rather_long_name_that_goes_on', 'bravo']);
    act(() => transport.emit('cellsChanged', { root: ROOT, added: [cell('delta', 'running')], changed: [cell('alpha', 'finished'), cell('bravo', 'running')], removed: [] }));
    // delta, new, goes after bravo, the row before it in the order sorting would give.
    expect(names()).toEqual(['alpha', 'charlie_with_a_rather_long_name_that_goes_on', 'bravo', 'delta']);
    fireEvent.click(screen.getByRole('button', { name: 're-sort' }));
    expect(names()).toEqual(['bravo', 'delta', 'charlie_with_a_rather_long_name_that_goes_on', 'alpha']);
    expect(screen.queryByRole('button', { name: 're-sort' })).toBeNull();
  });
});

describe('the strip above the list', () => {
  it('counts the cells by what they do now, and sums the estimates of those priced; with none priced it says so, never "$0.00"', async () => {
    await show(transport);
    const now = screen.getByRole('status', { name: 'Now' });
    expect(now.textContent).toBe('1 running1 stale0 crashed or interrupted1 endedest. $9.36 in allspend per hour: watching…');
    const unpriced = (c: CellSummary) => ({ ...c, cost_usd_estimate: null });
    act(() => transport.emit('cellsChanged', { root: ROOT, added: [], changed: [unpriced(cell('alpha', 'running')), unpriced(cell('bravo', 'finished')), unpriced(cell('charlie_with_a_rather_long_name_that_goes_on', 'stale', 'evopolicygym'))], removed: [] }));
    await waitFor(() => expect(now.textContent).toBe('1 running1 stale0 crashed or interrupted1 endedno est. cost'));
  });
});

describe('the cell list grouped', () => {
  it('heads each group with its cells counted, one or many, its running ones and its pooled rate', async () => {
    await show(transport);
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'format' } });
    const summaries = [...document.querySelectorAll('.group-summary')].map((s) => s.textContent);
    expect(summaries).toEqual(['2 cells · 1 running · 100.0% of scored episodes', '1 cell · 0 running · 100.0% of scored episodes']);
    expect(screen.getByText('3 cells')).toBeTruthy();
  });
});

describe('the cell list columns', () => {
  it('are as wide as their longest value, header included (8 px a character where nothing can measure text)', async () => {
    await show(transport);
    const head = within(screen.getByRole('table', { name: 'Cells' })).getAllByRole('row')[0] as HTMLElement;
    // Name: the long name (44 characters); Format: "evopolicygym"; State: "finished"; Episodes: "1,234/4,000";
    // Success: its header; Tokens: "1.2M in · 300k out · est. $3.12".
    expect(head.style.gridTemplateColumns).toBe('minmax(360px, 1fr) 104px 44px 72px 88px 96px 78px 256px 72px 60px');
    // The column's figures are compact, its tooltip's whole, each with where it comes from.
    const title = '1,200,000 in · 300,000 out: summed as the files count them; a negative count is a problem, left out\nest. $3.12: tokens at list price, prices.yml';
    expect(screen.getAllByTitle(title, { normalizer: (t) => t })).toHaveLength(3);
  });

  it('follow the cells as they change, taken again at most every 2 s', async () => {
    await show(transport);
    const head = within(screen.getByRole('table', { name: 'Cells' })).getAllByRole('row')[0] as HTMLElement;
    const before = head.style.gridTemplateColumns;
    act(() => transport.emit('cellsChanged', { root: ROOT, added: [{ ...cell('echo', 'running'), format: 'a-format-with-a-long-name' as CellSummary['format'] }], changed: [], removed: [] }));
    expect(head.style.gridTemplateColumns).toBe(before);
    await waitFor(() => expect(head.style.gridTemplateColumns).not.toBe(before), { timeout: 3000 });
    // Format: "a-format-with-a-long-name", 25 characters.
    expect(head.style.gridTemplateColumns.split(' ')[2]).toBe('208px');
  });

  it('hide and resize as the user says, and stay so the next time the list opens', async () => {
    await show(transport);
    fireEvent.click(screen.getByRole('checkbox', { name: /Tokens/ }));
    expect(headers()).not.toContain('Tokens');
    const handle = screen.getByRole('separator', { name: 'Resize Format' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    cleanup();
    await show(transport);
    expect(headers()).toEqual(['Name', 'Format', 'Board', 'State', 'Budget', 'Episodes', 'Success', 'Changed', 'Problems']);
    const head = within(screen.getByRole('table', { name: 'Cells' })).getAllByRole('row')[0] as HTMLElement;
    expect(head.style.gridTemplateColumns).toMatch(/^minmax\(360px, 1fr\) \d+px /);
    expect(head.style.gridTemplateColumns).not.toMatch(/^minmax\(360px, 1fr\) 104px /);
    expect(screen.getByText('Columns (1 hidden)')).toBeTruthy();
    // A double click gives the column its content's width again.
    fireEvent.doubleClick(screen.getByRole('separator', { name: 'Resize Format' }));
    expect(head.style.gridTemplateColumns).toMatch(/^minmax\(360px, 1fr\) 104px /);
  });
});

describe('a cell whose count is past its plan', () => {
  it('says it is past in its budget and how far in its episodes, as a problem, never 100% of its budget', async () => {
    const past: CellSummary = { ...cell('alpha', 'running'), budget: { unit: 'episodes', used: 3, total: 2 }, episodes: { planned: 2, ended: 3, scored: 2, excluded: 1, successes: 2 } };
    await show(transport);
    act(() => transport.emit('cellsChanged', { root: ROOT, added: [], changed: [past], removed: [] }));
    const [alpha, bravo] = ['alpha', 'bravo'].map((name) => screen.getAllByRole('row').find((row) => within(row).queryByRole('button', { name })) as HTMLElement);
    const budgetOf = (row: HTMLElement) => within(row).getByRole('meter', { name: 'budget episodes' }).parentElement as HTMLElement;
    expect(budgetOf(alpha as HTMLElement).textContent).toBe('past');
    expect(budgetOf(alpha as HTMLElement).className).toContain('tone-fail');
    expect(budgetOf(alpha as HTMLElement).title).toBe('3 of 2 episodes: 1 past its plan, a problem of the cell');
    expect(within(alpha as HTMLElement).getByText('3/2').className).toBe('tone-fail');
    expect(budgetOf(bravo as HTMLElement).textContent).toBe('25%');
    expect(budgetOf(bravo as HTMLElement).className).not.toContain('tone-fail');
  });
});
