import fc from 'fast-check';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ObservedStep } from '../../shared/cell-detail';
import { context, tempDir } from '../testing';
import { observedOf } from './observed';
import { readTranscript } from './transcript';

// Rows as NeMo Gym's own tests build them (fixtures/observability/SOURCE.txt).
const FIXTURE = join(import.meta.dirname, 'fixtures/observability/rollouts.jsonl');
const rows = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
const row = (task: number, rollout = 0) => rows.find((r) => r._ng_task_index === task && r._ng_rollout_index === rollout) as Record<string, unknown>;

const brief = (step: ObservedStep) => {
  if (step.kind === 'tool') return `${step.atS?.toFixed(1) ?? '-'} tool ${step.name ?? step.callId} ${step.status} ${step.durationMs ?? '?'}`;
  if (step.kind === 'model') return `${step.atS?.toFixed(1) ?? '-'} model ${step.call.responseId ?? step.call.id}`;
  if (step.kind === 'turn') return `${step.atS?.toFixed(1) ?? '-'} turn ${step.turnNo}`;
  return `${step.atS?.toFixed(1) ?? '-'} compaction ${step.tokensBefore}->${step.tokensAfter}`;
};

describe("a NeMo Gym rollout's observations read as turns", () => {
  it('nests subagents under the invocations that spawned them, their tool calls on one time axis from the first observed time', () => {
    const observed = observedOf(row(0));
    expect(observed?.source).toBe('ng_agent_observations');
    expect(observed?.invocations.map((i) => [i.id, i.depth, i.spawnedBy, i.status])).toEqual([
      ['session-root', 0, null, 'completed'],
      ['agent-child', 1, 'tool-child', 'unknown'],
      ['agent-grandchild', 2, 'tool-grandchild', 'incomplete'],
    ]);
    // Parallel calls each with their own timing; the model calls named only by response id have no time here, so they follow.
    expect(observed?.invocations.map((i) => i.steps.map(brief))).toEqual([
      ['0.0 tool Read completed 1000', '0.0 tool Agent completed 3000', '- model msg-root'],
      ['1.0 tool Agent timeout 1000', '- model msg-child'],
      ['- model msg-grandchild'],
    ]);
    expect(observed?.spanS).toBe(3);
    expect(observed?.invocations[0]?.durationMs).toBe(5000);
    expect(observed?.gaps).toEqual([]);
  });

  it('marks a context compaction, says the sandbox it ran in, and says each gap as what could not be observed', () => {
    const observed = observedOf(row(1));
    const root = observed?.invocations[0];
    expect(root?.steps.map(brief)).toEqual(['- model msg-before', '- model msg-after', '0.0 compaction 1000->200'].sort((a, b) => Number(a.startsWith('-')) - Number(b.startsWith('-'))));
    expect(root?.steps.find((s) => s.kind === 'compaction')).toMatchObject({ trigger: 'auto', outcome: 'completed', summary: 'Summary:\nKeep this.' });
    expect(observed?.sandboxes).toEqual([{ role: 'agent', provider: 'docker', id: 'sbx-1', outcome: 'completed', exitCode: 0, wallS: 42.5, cpuS: 12.25, peakMib: 812, errorType: null }]);
    expect(observed?.gaps).toEqual([{ code: 'compaction_model_call_reference_unavailable', meaning: 'which model calls a context compaction used', invocation: 'root', detail: null }]);
  });

  it("reads a trajectory's turn with its question, answer and reasoning, and a model call's tokens where null is unknown, not zero", () => {
    const observed = observedOf(row(2, 3));
    expect(observed?.source).toBe('ng_trajectory');
    const [root] = observed?.invocations ?? [];
    expect(root?.id).toBe('root');
    expect(root?.steps.map(brief)).toEqual(['0.0 turn 1', '0.0 model shared']);
    expect(root?.steps[0]).toMatchObject({ question: 'What is 2+2?', answer: '4', reasoning: 'add them', resolved: true, stepCount: 0 });
    const shared = root?.steps[1];
    expect(shared?.kind === 'model' && shared.call).toMatchObject({
      model: 'producer-model', durationMs: 800, ttftMs: 210, finishReason: 'stop', status: 'completed', statusCode: 200,
      tokens: { prompt: 120, completion: 30, reasoning: null, total: 150, cached: null },
    });
    // The calls no invocation or turn names are listed apart, not dropped.
    expect(observed?.unowned.map((c) => c.id)).toEqual(['producer-only', 'capture-only']);
    expect(observed?.gaps.map((g) => [g.code, g.meaning])).toEqual([['producer_trajectory_identity_mismatch', "the producer's own task and rollout ids (they differ from the collection's)"]]);
  });

  it('keeps tool calls without timing after the timed ones, each with its status and output', () => {
    const observed = observedOf(row(2, 4));
    expect(observed?.invocations.map((i) => i.id)).toEqual(['root', 'observed']);
    expect(observed?.invocations[0]?.steps.map(brief)).toEqual(['0.0 tool tool-1 failed 200', '0.0 tool observed-only completed 200', '- tool producer-only unknown ?']);
    expect(observed?.invocations[0]?.steps.map((s) => s.kind === 'tool' && s.output)).toEqual(['result', 'new', 'kept']);
    expect(observed?.spanS).toBeCloseTo(0.2);
  });

  it('survives what the models refuse: parents in a cycle, wrong types, an unknown gap code, a member that is not an object', () => {
    const cyclic = observedOf({ ng_agent_observations: { records: [{ kind: 'agent_invocation', invocation_id: 'a', parent_invocation_id: 'b' }, { kind: 'agent_invocation', invocation_id: 'b', parent_invocation_id: 'a' }], gaps: [{ code: 'cyclic_subagent_parent' }, { code: 'new_kind_of_gap' }] } });
    expect(cyclic?.invocations.map((i) => [i.id, i.depth])).toEqual([['a', 0], ['b', 1]]);
    expect(cyclic?.gaps.map((g) => g.meaning)).toEqual(["a subagent's parent (the parents named form a cycle)", 'new kind of gap']);
    const odd = observedOf({ ng_trajectory: 'text', ng_agent_observations: { records: 'x', gaps: 7 } });
    expect(odd).toMatchObject({ source: 'ng_trajectory', invocations: [], sandboxes: [], gaps: [], spanS: null });
    expect(observedOf({ ng_trajectory: { turns: [{ turn_no: 'one', timestamp: 'now', question: { parts: 1 } }], tool_calls: [7, null] } })?.invocations[0]?.steps.map((s) => s.kind)).toEqual(['turn', 'tool', 'tool']);
    expect(observedOf({ reward: 1 })).toBeNull();
  });

  it('is what the transcript of such a rollout carries, opened from its collection', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.path, 'rollouts.jsonl');
      copyFileSync(FIXTURE, path);
      const t = await readTranscript(path, '0#0', context());
      expect(t?.observed?.invocations.map((i) => i.id)).toEqual(['session-root', 'agent-child', 'agent-grandchild']);
      expect(JSON.parse(t?.observed?.json ?? '{}').ng_agent_observations.source).toBe('claude_code');
    } finally {
      tmp.remove();
    }
  });
});

/** Every path into a JSON value, the empty one first. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(value) ? value.map((v, i) => paths(v, [...at, i])) : value !== null && typeof value === 'object' ? Object.entries(value).map(([k, v]) => paths(v, [...at, k])) : [];
  return [at, ...inner.flat()];
}

function replaced(value: Record<string, unknown>, path: (string | number)[], by: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  let here: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  here[path.at(-1) as string | number] = by;
  return copy;
}

describe('observations against random input', () => {
  it('any value of a real row replaced by any JSON: no throw, each invocation once, a parent before its children, no step before the first', () => {
    const all = rows.map((r) => ({ row: r, paths: paths(r).filter((p) => p.length > 0) }));
    fc.assert(
      fc.property(fc.nat(all.length - 1), fc.nat(), fc.jsonValue(), (which, at, by) => {
        const { row: real, paths: inRow } = all[which]!;
        const observed = observedOf(replaced(real, inRow[at % inRow.length]!, by));
        if (!observed) return;
        const ids = observed.invocations.map((i) => i.id);
        expect(new Set(ids).size).toBe(ids.length);
        observed.invocations.forEach((invocation, i) => {
          if (invocation.depth > 0) expect(ids.slice(0, i)).toContain(invocation.parent);
          for (const step of invocation.steps) if (step.atS !== null) expect(step.atS).toBeGreaterThanOrEqual(0);
        });
        expect(() => JSON.stringify(observed)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});

