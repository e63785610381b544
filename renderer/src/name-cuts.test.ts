import { describe, expect, it } from 'vitest';
import { differences, distinctCut, middleCut, nameCuts, readsAs, twoLines } from './name-cuts';

describe('an id cut to fit', () => {
  it('keeps both ends, and is whole when it fits', () => {
    expect(middleCut('std_sdk_demo-model_bare_default', 15)).toBe('std_sdk…default');
    expect(middleCut('std_sdk_other_bare_default', 26)).toBe('std_sdk_other_bare_default');
  });

  it('stays told apart from the ids it shares a start with: the shared start gives way first', () => {
    const names = ['std_sdk_demo-model_bare_default', 'std_sdk_demo-model_full_default', 'cartpole_balance', 'cartpole_evo', 'rollouts'];
    const at = differences(names);
    const cut = (name: string, max: number) => distinctCut(name, max, at.get(name) ?? 0);
    expect(cut('std_sdk_demo-model_bare_default', 14)).toBe('…bare_default');
    expect(cut('std_sdk_demo-model_full_default', 14)).toBe('…full_default');
    expect(cut('cartpole_balance', 14)).toBe('…balance');
    expect(cut('cartpole_evo', 14)).toBe('cartpole_evo');
    expect(cut('std_sdk_demo-model_bare_default', 9)).toBe('…bare…ult');
    // Nothing alike: the middle goes.
    expect(distinctCut('a_very_long_unique_identifier', 14, 0)).toBe('a_very_…tifier');
  });

  it('never reads the same for two names: those that would are cut to where they differ', () => {
    const names = ['std_cli_demo-model_bare_default', 'std_cli_demo-model_full_default', 'std_sdk_demo-model_bare_default', 'std_sdk_demo-model_full_default', 'cartpole_balance', 'cartpole_evo', 'rollouts'];
    const cuts = nameCuts(names, 14);
    expect(names.map((name) => cuts.get(name))).toEqual(['std_cli…bare…', 'std_cli…full…', 'std_sdk…bare…', 'std_sdk…full…', '…balance', 'cartpole_evo', 'rollouts']);
    // Narrower, the start gives way.
    expect(nameCuts(names, 12).get('std_sdk_demo-model_full_default')).toBe('…sdk…full…');
    for (const max of [6, 9, 12, 14, 20]) {
      const cut = nameCuts(names, max);
      expect(new Set(cut.values()).size).toBe(names.length);
      cut.forEach((shown, name) => expect(shown.length <= Math.max(max, 5) || shown.replace('\n', '') === name).toBe(true));
    }
  });

  it('keeps 2,000 run names of four fields apart at every width: a name no cut tells apart is shown whole', () => {
    const names = ['cli', 'openhands', 'sdk', 'codex', 'aider', 'swe-agent', 'claude-code', 'goose'].flatMap((harness) =>
      ['claude-9-opus', 'claude-9-sonnet', 'gpt-6-luna', 'gpt-6-mini', 'gemini-4-pro'].flatMap((model) =>
        ['bare', 'full', 'short', 'tools', 'strict'].flatMap((condition) => ['e1', 'e2', 'e4', 'e8', 'default', 'high', 'low', 'xhigh', 'max', 'min'].map((effort) => `std_${harness}_${model}_${condition}_${effort}`)),
      ),
    );
    expect(names).toHaveLength(2000);
    for (const max of [8, 11, 16, 20, 28]) {
      const cut = nameCuts(names, max);
      expect(new Set(cut.values()).size).toBe(2000);
      expect(cut.get('std_cli_claude-9-opus_full_e8')).not.toBe(cut.get('std_openhands_claude-9-opus_full_e8'));
      cut.forEach((shown, name) => expect(shown.length <= max || shown.replace('\n', '') === name).toBe(true));
    }
    // No cut reads as another name too: one that would hide the field it differs in is whole instead.
    for (const max of [11, 40]) {
      const cut = nameCuts(names, max);
      const misread = [...cut].filter(([name, shown]) => !shown.includes('\n') && names.some((other) => other !== name && readsAs(shown, other)));
      expect(misread).toEqual([]);
    }
  });
});

describe('a name whole on two lines', () => {
  it('breaks after the separator nearest its middle, and only when it is longer than its room', () => {
    expect(twoLines('std_sdk_demo-model_bare_default', 40)).toBe('std_sdk_demo-model_bare_default');
    expect(twoLines('std_sdk_demo-model_bare_default', 20)).toBe('std_sdk_demo-\nmodel_bare_default');
    expect(twoLines('abcdefgh', 4)).toBe('abcd\nefgh');
  });
});

describe('a cut that ends inside a part', () => {
  it('is never taken for a name that only shares the end of that part: one that reads as another is whole', () => {
    const names = ['run_a_default', 'run_a_fault'];
    const cut = nameCuts(names, 9);
    for (const [name, shown] of cut) expect(names.filter((other) => other !== name && !shown.includes('\n') && readsAs(shown, other))).toEqual([]);
  });
});
