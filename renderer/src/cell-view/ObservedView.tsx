import type { Observed, ObservedInvocation, ObservedModelCall, ObservedStep, ObservedTokens } from '../../../shared/cell-detail';
import { counted, whole } from '../format';

const duration = (ms: number | null) => (ms === null ? 'duration unknown' : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${whole(Math.round(ms))} ms`);

/** Each count the harness gave; one it did not is "unknown", never 0. */
function tokensText(tokens: ObservedTokens): string {
  const parts = (['prompt', 'completion', 'reasoning', 'cached', 'total'] as const).map((key) => `${key} ${tokens[key] === null ? 'unknown' : whole(tokens[key])}`);
  return `tokens: ${parts.join(' · ')}`;
}

function modelText(call: ObservedModelCall): string {
  return [
    `model call ${call.model ?? call.id ?? call.responseId ?? ''}`.trim(),
    duration(call.durationMs),
    call.ttftMs !== null && `first token ${duration(call.ttftMs)}`,
    call.finishReason && `finish: ${call.finishReason}`,
    (call.status || call.statusCode !== null) && [call.status, call.statusCode].filter((v) => v !== null).join(' '),
    call.errorCategory && `error: ${call.errorCategory}`,
  ].filter(Boolean).join(' · ');
}

/** Where a step sits on the rollout's one time axis, as a bar as long as it took. */
function Bar({ step, spanS }: { step: ObservedStep; spanS: number | null }) {
  const ms = step.kind === 'tool' ? step.durationMs : step.kind === 'model' ? step.call.durationMs : null;
  if (step.atS === null || !spanS) return <span className="observed-track" aria-hidden />;
  const left = (step.atS / spanS) * 100;
  const width = ms === null ? 0 : Math.min(100 - left, (ms / 1000 / spanS) * 100);
  return (
    <span className="observed-track" aria-hidden>
      <span className={`observed-bar observed-${step.kind}`} style={{ left: `${left}%`, width: `max(2px, ${width}%)` }} />
    </span>
  );
}

function StepLine({ step }: { step: ObservedStep }) {
  switch (step.kind) {
    case 'turn':
      return (
        <div>
          <strong>turn {step.turnNo}</strong>
          {step.stepCount !== null && ` · ${counted(step.stepCount, 'step')}`}
          {step.resolved !== null && ` · ${step.resolved ? 'resolved' : 'not resolved'}`}
          {step.question !== null && <pre><span className="turn-role">question</span> {step.question}</pre>}
          {step.reasoning !== null && <pre className="muted"><span className="turn-role">reasoning</span> {step.reasoning}</pre>}
          {step.answer !== null && <pre><span className="turn-role">answer</span> {step.answer}</pre>}
        </div>
      );
    case 'model':
      return (
        <div>
          {modelText(step.call)}
          <div className="muted">{tokensText(step.call.tokens)}</div>
        </div>
      );
    case 'tool':
      return (
        <div className={step.status === 'completed' ? undefined : 'observed-trouble'}>
          tool {step.name ?? step.callId} · {step.status} · {duration(step.durationMs)}
          {step.timing && ` (${step.timing} timing)`}
          {step.errorType && ` · ${step.errorType}`}
          {step.sandbox && <span className="muted"> · sandbox {step.sandbox}</span>}
          {step.output !== null && <pre className="observed-output">{step.output}</pre>}
        </div>
      );
    case 'compaction':
      return (
        <div className="observed-compaction">
          context compaction{step.trigger && ` (${step.trigger})`} · {step.tokensBefore === null ? 'unknown' : whole(step.tokensBefore)} → {step.tokensAfter === null ? 'unknown' : whole(step.tokensAfter)} tokens · {step.outcome}
          {step.summary && <pre className="muted">{step.summary}</pre>}
        </div>
      );
  }
}

function Invocation({ invocation, spanS }: { invocation: ObservedInvocation; spanS: number | null }) {
  const { id, depth, status, durationMs, spawnedBy, errorType, steps } = invocation;
  return (
    <div className="observed-invocation" style={{ marginLeft: depth * 18 }} role="group" aria-label={`Invocation ${id || 'not named'}`}>
      <div className="observed-head">
        <span className="turn-role">{depth ? 'subagent' : 'agent'}</span> <code>{id || 'not named'}</code> · {status}
        {durationMs !== null && ` · ${duration(durationMs)}`}
        {spawnedBy && ` · spawned by tool call ${spawnedBy}`}
        {errorType && ` · ${errorType}`}
      </div>
      <ol className="observed-steps">
        {steps.map((step, i) => (
          <li key={i} className={`observed-step observed-step-${step.kind}`}>
            <span className="turn-when">{step.atS === null ? 'untimed' : `+${step.atS.toFixed(1)} s`}</span>
            <Bar step={step} spanS={spanS} />
            <StepLine step={step} />
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A NeMo Gym rollout as its harness observed it: invocations nested, each step on one time axis, sandboxes, and what could not be observed. */
export function ObservedView({ observed }: { observed: Observed }) {
  const { invocations, unowned, sandboxes, gaps, spanS } = observed;
  return (
    <section className="observed" aria-label="Observed by the harness">
      <h3>
        Observed by the harness <span className="muted">{observed.source} · {counted(invocations.length, 'invocation')}{spanS !== null && ` over ${spanS.toFixed(1)} s`}</span>
      </h3>
      {gaps.length > 0 && (
        <ul className="gaps" aria-label="Not observed">
          {gaps.map((gap, i) => (
            <li key={i}>
              Not observed: {gap.meaning} <span className="muted">({[gap.code, gap.invocation, gap.detail].filter(Boolean).join(' · ')})</span>
            </li>
          ))}
        </ul>
      )}
      {sandboxes.length > 0 && (
        <table className="plain-table" aria-label="Sandboxes">
          <thead>
            <tr><th>Sandbox</th><th>Outcome</th><th className="num">Exit code</th><th className="num">Wall</th><th className="num">CPU</th><th className="num">Peak memory</th></tr>
          </thead>
          <tbody>
            {sandboxes.map((s, i) => (
              <tr key={i}>
                <td>{s.role}{s.provider && ` · ${s.provider}`}{s.id && ` · ${s.id}`}</td>
                <td>{s.outcome}{s.errorType && ` · ${s.errorType}`}</td>
                <td className="num">{s.exitCode ?? 'unknown'}</td>
                <td className="num">{s.wallS === null ? 'unknown' : `${s.wallS.toFixed(1)} s`}</td>
                <td className="num">{s.cpuS === null ? 'unknown' : `${s.cpuS.toFixed(1)} s`}</td>
                <td className="num">{s.peakMib === null ? 'unknown' : `${whole(Math.round(s.peakMib))} MiB`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {invocations.map((invocation) => (
        <Invocation key={invocation.id} invocation={invocation} spanS={spanS} />
      ))}
      {unowned.length > 0 && (
        <div className="observed-invocation" role="group" aria-label="Model calls no invocation names">
          <div className="observed-head"><span className="turn-role">model calls no invocation names</span></div>
          <ul className="observed-steps">
            {unowned.map((call, i) => (
              <li key={i} className="observed-step">
                <span className="turn-when">untimed</span>
                <span className="observed-track" aria-hidden />
                <div>{modelText(call)}<div className="muted">{tokensText(call.tokens)}</div></div>
              </li>
            ))}
          </ul>
        </div>
      )}
      <details>
        <summary className="muted">As the row gives it</summary>
        <pre>{observed.json}</pre>
      </details>
    </section>
  );
}
