import { describe, expect, it } from 'vitest';
import type { StreamEvent } from './cell-detail';
import { eventsToTranscript, hasConversation } from './episode-transcript';

let line = 0;
const event = (seq: number, t: number, ev: string, fields: Record<string, unknown> = {}): StreamEvent =>
  ({ episode: '7', seq, t, ev, line: ++line, end: line * 100, fields: { seq, t, ev, ...fields } });

describe("a coding-agent episode's transcript", () => {
  it('pairs each call with its result by call id, whole, names the frame it shows, and ends with the outcome', () => {
    const items = eventsToTranscript([
      event(0, 100, 'episode_start', { episode: 7, instruction: 'Walk to the fridge.' }),
      event(1, 101.5, 'agent_message', { text: 'Looking first.' }),
      event(2, 102, 'tool_call', { call_id: 'c1', name: 'observe_egocentric', args: {} }),
      event(3, 103, 'tool_call', { call_id: 'c2', name: 'step_discrete', args: { action: 'forward' } }),
      event(4, 103.2, 'tool_result', { call_id: 'c2', name: 'step_discrete', ok: true, step: { action: 'forward', done: false } }),
      event(5, 104, 'tool_result', { call_id: 'c1', name: 'observe_egocentric', ok: true, frame: 'frames/000001.png' }),
      event(6, 105, 'tool_result', { call_id: 'c9', ok: false }),
      event(7, 110, 'throttle', { attempt: 1, wait_s: 30 }),
      event(8, 150, 'evaluate', { success: true, metrics: { spl: 0.61 } }),
      event(9, 150.1, 'episode_end', { status: 'evaluated', engaged: true, tool_calls: 2, actions: 1, wall_s: 50.1 }),
    ]);
    expect(items.map((i) => i.kind)).toEqual(['input', 'message', 'call', 'call', 'other', 'other', 'outcome']);
    expect(items[1]).toMatchObject({ text: 'Looking first.', offsetS: 1.5, epochS: 101.5, seq: 1 });
    expect(items[2]).toMatchObject({ name: 'observe_egocentric', callId: 'c1', frame: 'frames/000001.png', output: '{\n  "ok": true,\n  "frame": "frames/000001.png"\n}' });
    expect(items[3]).toMatchObject({ callId: 'c2', arguments: '{\n  "action": "forward"\n}', output: expect.stringContaining('"done": false') });
    expect(items[4]).toMatchObject({ type: 'tool result of no call', json: '{\n  "ok": false\n}' });
    expect(items[5]).toMatchObject({ type: 'throttle', json: "paused 30 s by the model's service (attempt 1)", durationS: 30 });
    // Each call as long as it took to its result, however their results come back in order.
    expect([items[2]?.durationS, items[3]?.durationS]).toEqual([2, expect.closeTo(0.2, 9)]);
    expect(items[6]).toMatchObject({ kind: 'outcome', text: 'ended evaluated · success · 2 tool calls · 1 actions · 50.1 s · metrics {"spl":0.61}', offsetS: expect.closeTo(50.1, 9) });
  });
});

describe('a stream offered as a transcript', () => {
  const CONVERSATION = ['episode_start', 'agent_message', 'tool_call', 'tool_result', 'throttle', 'episode_end'];
  // An evopolicygym log's, a bigym ledger's, a NeMo Gym log's.
  const OTHERS = ['run_started', 'submission_completed', 'assessment_completed', 'dev_episode', 'rollout', 'rollout_failed', 'evaluate'];

  it('is one holding an event a transcript is made of, each such event an item of it', () => {
    for (const type of CONVERSATION) {
      expect(hasConversation([event(0, 1, 'run_started'), event(1, 2, type)]), type).toBe(true);
      expect(eventsToTranscript([event(0, 1, type)]), type).toHaveLength(1);
    }
  });

  it('is not one of submissions, a ledger or rollouts, which no transcript item reads', () => {
    const log = OTHERS.map((type, i) => event(i, i, type));
    expect(hasConversation(log)).toBe(false);
    expect(eventsToTranscript(log)).toEqual([]);
  });
});

