import { describe, expect, it } from 'vitest';
import { parseSlots } from './slots';

describe('comparison slots', () => {
  it('reads vNNN, NNN, last and submission', () => {
    expect(parseSlots('s1:v008, move_plate:8,runs/a:last,b:submission').map((s) => [s.session, s.version])).toEqual([
      ['s1', { kind: 'version', version: 'v008' }],
      ['move_plate', { kind: 'version', version: 'v008' }],
      ['runs/a', { kind: 'last' }],
      ['b', { kind: 'submission' }],
    ]);
  });
  it('refuses a slot without a version, a bad version, more than six, none', () => {
    expect(() => parseSlots('s1')).toThrow('slot "s1" is not session:version');
    expect(() => parseSlots('s1:latest')).toThrow('slot "s1:latest"');
    expect(() => parseSlots('a:1,b:1,c:1,d:1,e:1,f:1,g:1')).toThrow('at most 6 slots, not 7');
    expect(() => parseSlots(' , ')).toThrow('name at least one slot');
  });
});
