import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DetailTable } from '../../../shared/cell-detail';
import { DetailTableView } from './DetailTables';

const ROLLOUTS: DetailTable = {
  id: 'rollouts',
  title: 'Rollouts',
  columns: ['rollout', 'agent', 'reward', 'input'],
  rows: Array.from({ length: 1000 }, (_, i) => [`${i}#0`, 'bench_agent', i % 2, 39_998 + i]),
  note: null,
  counted: '1,000 rollouts',
  opens: 'transcript',
};

afterEach(cleanup);

describe('a detail table of many rows', () => {
  it('renders the rows in its box, keeps the whole height, and shows later rows as it is scrolled', async () => {
    render(<DetailTableView table={ROLLOUTS} onOpen={() => undefined} live={false} />);
    const region = screen.getByRole('region', { name: 'Rollouts' });
    const rows = () => within(region).getAllByRole('row').slice(1);
    expect(rows().length).toBeLessThan(60);
    expect(rows()[0]?.textContent).toBe('0#0bench_agent039,998');
    const table = within(region).getByRole('table');
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    // The rows not rendered keep their room: the scroll box is as tall as the whole table.
    const spacers = [...table.querySelectorAll('tbody tr[aria-hidden="true"]')].map((tr) => Number.parseInt((tr as HTMLElement).style.height, 10));
    expect(rows().length * 24 + spacers.reduce((a, b) => a + b, 0)).toBe(1000 * 24);

    const box = region.querySelector('.detail-table-scroll') as HTMLElement;
    box.scrollTop = 500 * 24;
    await act(async () => void fireEvent.scroll(box));
    const shown = rows().map((row) => row.getAttribute('aria-rowindex'));
    expect(shown).toContain('502');
    expect(shown).not.toContain('2');
    expect(within(region).getByRole('button', { name: 'Open rollout 500#0' })).toBeTruthy();
  });

  it('gives each column a width from its values, the numbers tabular and right-aligned', () => {
    render(<DetailTableView table={ROLLOUTS} onOpen={() => undefined} live={false} />);
    const cols = [...screen.getByRole('table').querySelectorAll('col')].map((col) => Number.parseInt((col as HTMLElement).style.width, 10));
    expect(cols).toHaveLength(4);
    // Without a canvas to measure with, a character is taken as 8 px: "bench_agent" and its padding.
    expect(cols[1]).toBe(11 * 8 + 8);
    expect(screen.getAllByRole('columnheader')[3]?.className).toBe('num');
  });

  it('shows a column of fractions to the same places (up to four), so they line up at the point; a mixed column as given', () => {
    const tasks: DetailTable = {
      id: 'tasks',
      title: 'Tasks',
      columns: ['task', 'mean', 'wall s', 'note'],
      rows: [
        [0, 0.75, 1234.5, 'x'],
        [1, 2 / 3, 12, 0.5],
        [2, 1, null, 3],
      ],
      note: null,
      counted: '3 tasks',
    };
    render(<DetailTableView table={tasks} onOpen={() => undefined} live={false} />);
    const cells = screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(cells).toEqual([
      ['0', '0.7500', '1,234.5', 'x'],
      ['1', '0.6667', '12.0', '0.5'],
      ['2', '1.0000', '–', '3'],
    ]);
  });

  it('counts its rows in words, says on its title where its figures come from, and shows its rates as percentages', () => {
    const agents: DetailTable = {
      id: 'agents',
      title: 'Agents',
      columns: ['agent', 'scored', 'successes', 'success rate'],
      rows: [
        ['a', 24, 20, 20 / 24],
        ['b', 23, 12, 12 / 23],
      ],
      note: null,
      counted: '2 agents',
      from: 'rollouts.jsonl: each agent\'s scored rollouts',
      shares: ['success rate'],
    };
    render(<DetailTableView table={agents} onOpen={() => undefined} live={false} />);
    const heading = screen.getByRole('heading', { name: /^Agents 2 agents/ });
    expect(heading.getAttribute('title')).toBe("rollouts.jsonl: each agent's scored rollouts");
    expect(screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[3]?.textContent)).toEqual(['83.3%', '52.2%']);
  });

  it('says an empty table has none yet while its cell runs, and none once it has ended', () => {
    const audit: DetailTable = { id: 'audit', title: 'Audit', columns: ['line', 'path'], rows: [], note: null, counted: '0 lines', from: 'transcript.jsonl' };
    const { rerender } = render(<DetailTableView table={audit} onOpen={() => undefined} live />);
    expect(screen.getByText('None yet.')).toBeTruthy();
    rerender(<DetailTableView table={audit} onOpen={() => undefined} live={false} />);
    expect(screen.getByText('None.')).toBeTruthy();
  });
});
