import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from './cell-detail';
import { canonicalArguments } from './call-arguments';
import { firstDivergence } from './divergence';

const call = (name: string, args: unknown): TranscriptItem => ({ kind: 'call', name, callId: null, arguments: JSON.stringify(args, null, 2), output: null });
const message = (text: string): TranscriptItem => ({ kind: 'message', role: 'agent', text });

describe('the first divergence', () => {
  it('is the first step where the actions differ: another tool, other arguments, or one side ended', () => {
    const a = [message('look'), call('observe', {}), call('step', { action: 'left' }), message('again'), call('step', { action: 'left' })];
    expect(firstDivergence(a, [message('hm'), call('observe', {}), call('step', { action: 'right' })])).toEqual({ step: 1, why: 'arguments', a: 2, b: 2, actions: { a: 3, b: 2 } });
    expect(firstDivergence(a, [call('observe', {}), call('reset', {})])).toMatchObject({ step: 1, why: 'tool', a: 2, b: 1 });
    expect(firstDivergence(a, [call('observe', {}), call('step', { action: 'left' })])).toMatchObject({ step: 2, why: 'b ended', a: 4, b: null });
    expect(firstDivergence([], a)).toMatchObject({ step: 0, why: 'a ended', a: null, b: 1 });
    expect(firstDivergence(a, [...a])).toEqual({ step: null, why: null, a: null, b: null, actions: { a: 3, b: 3 } });
  });

  it('reads arguments alike whatever their spacing and key order; text that is not JSON as given', () => {
    expect(canonicalArguments('{"b": 1,\n "a": [ {"y":2,"x":1} ]}')).toBe(canonicalArguments('{"a":[{"x":1,"y":2}],"b":1}'));
    expect(firstDivergence([call('run', { a: 1, b: 2 })], [{ kind: 'call', name: 'run', callId: null, arguments: '{"b":2,"a":1}', output: null }]).step).toBeNull();
    expect(canonicalArguments('  ls -la ')).toBe('ls -la');
  });

  it('agrees with a step-by-step comparison of any two action lists', () => {
    const action = fc.record({ name: fc.constantFrom('a', 'b'), arg: fc.nat(2) });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 8 }), fc.array(action, { maxLength: 8 }), (xs, ys) => {
        const items = (list: typeof xs) => list.flatMap((x, i) => [message(String(i)), call(x.name, { v: x.arg })]);
        const got = firstDivergence(items(xs), items(ys));
        let step = 0;
        while (step < xs.length && step < ys.length && xs[step]!.name === ys[step]!.name && xs[step]!.arg === ys[step]!.arg) step++;
        expect(got.step).toBe(step === xs.length && step === ys.length ? null : step);
      }),
    );
  });
});
