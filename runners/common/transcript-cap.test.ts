import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../shared/cell-detail';
import { capTranscript } from './transcript-cap';

describe('a transcript as the window gets it', () => {
  it('cuts each long text to its first characters and says how much is left out, leaving short ones whole', () => {
    const long = 'a'.repeat(30);
    const t: Transcript = {
      unit: '1#1', agent: null, answer: long, reward: 1, verdict: {}, patch: null, observed: null,
      items: [{ kind: 'message', role: 'assistant', text: long }, { kind: 'call', name: 'bash', callId: null, arguments: 'ls', output: long }, { kind: 'input', role: 'user', text: 'short' }],
    };
    const capped = capTranscript(t, 10);
    expect(capped.items[0]).toEqual({ kind: 'message', role: 'assistant', text: `${'a'.repeat(10)}\n… 20 more characters, too long to show whole (30 in all)` });
    expect(capped.items[1]).toMatchObject({ arguments: 'ls', output: expect.stringMatching(/^a{10}\n… 20 more/) });
    expect(capped.items[2]).toEqual(t.items[2]);
    expect(capped.answer).toMatch(/^a{10}\n…/);
    expect(capTranscript(t)).toEqual(t);
  });
});
