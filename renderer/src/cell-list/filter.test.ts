import { describe, expect, it } from 'vitest';
import type { CellSummary } from '../../../shared/model';
import { completions, filterSyntax, matches, parseFilter } from './filter';

const cell = (name: string, more: Partial<CellSummary>): CellSummary =>
  ({
    name, path: `/runs/${name}`, root: '/runs', host: 'local', format: 'coding-agent', board: 'on', state: 'running', success_rate: null, cost_usd_estimate: null, problems: [], running: [],
    episodes: { planned: 100, ended: 10, scored: 10, excluded: 0, successes: 5 }, labels: { harness: 'sdk', model: 'm', condition: 'bare', effort: 'default' }, ...more,
  }) as CellSummary;

const CELLS = [
  cell('std_sdk_m_bare_default', { success_rate: 0.62 }),
  cell('rollouts', { format: 'nemo-gym', host: 'gpu1', state: 'finished', board: null, success_rate: 0.3, labels: { harness: 'demo_codex_agent, demo_claude_agent', model: null, condition: null, effort: null } }),
  cell('std_cli_m_bare_default', { state: 'crashed', problems: [{ file: 'x', message: 'y', severity: 'error' }] }),
];
const names = (filter: string) => CELLS.filter((c) => matches(c, parseFilter(filter))).map((c) => c.name);

describe('the cell filter', () => {
  it('keeps the cells every term holds for: words, field:value, numbers with > and <', () => {
    expect(names('std bare')).toEqual(['std_sdk_m_bare_default', 'std_cli_m_bare_default']);
    expect(names('state:running')).toEqual(['std_sdk_m_bare_default']);
    expect(names('format:nemo host:gpu1')).toEqual(['rollouts']);
    expect(names('success>50')).toEqual(['std_sdk_m_bare_default']);
    expect(names('success<50%')).toEqual(['rollouts']);
    expect(names('problems>0')).toEqual(['std_cli_m_bare_default']);
    // A cell with no rate is neither above nor below.
    expect(names('success<100')).toEqual(['std_sdk_m_bare_default', 'rollouts']);
    // A cell with a unit stuck or looping now is `state:stuck` or `state:looping` besides its state.
    const stuck = cell('std_stuck', { running: [{ unit: '3', lastEventAt: Date.now() - 11 * 60_000, pausedUntil: null, repeat: null }] });
    expect([stuck, ...CELLS].filter((c) => matches(c, parseFilter('state:stuck'))).map((c) => c.name)).toEqual(['std_stuck']);
    expect(matches(stuck, parseFilter('state:running'))).toBe(true);
    // A field it does not know is a word like any other.
    expect(names('colour:red')).toEqual([]);
  });

  it('offers field names for the last word, and the values the cells have for a field', () => {
    expect(completions('sta', CELLS)).toEqual(['state:']);
    expect(completions('std state:', CELLS)).toEqual(['std state:crashed', 'std state:finished', 'std state:running']);
    expect(completions('state:r', CELLS)).toEqual(['state:running']);
    expect(completions('harness:demo', CELLS)).toEqual(['harness:demo_codex_agent']);
    expect(completions('su', CELLS)).toEqual(['success>']);
    expect(completions('state:running', CELLS)).toEqual([]);
    expect(completions('', CELLS)).toEqual([]);
  });

  it("says its syntax with a format the listed cells have, never one of the window's own", () => {
    expect(filterSyntax(CELLS.slice(1))).toBe('words; field:value (state:running, state:stuck, format:nemo-gym, host:gpu1); a number with > or < (success>50, problems>0)');
    expect(filterSyntax(CELLS)).toContain('format:coding-agent,');
    expect(filterSyntax([])).not.toContain('format:');
  });
});
