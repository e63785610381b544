import { useEffect, useRef, useState } from 'react';
import type { Transcript, TranscriptItem } from '../../../shared/cell-detail';
import { CallFailed } from '../CallFailed';
import { useTransport } from '../context';

function Item({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'input':
    case 'message':
      return (
        <div className={`turn turn-${item.kind}`}>
          <span className="turn-role">{item.kind === 'input' ? `${item.role} (input)` : item.role}</span>
          <pre>{item.text}</pre>
        </div>
      );
    case 'reasoning':
      return (
        <div className="turn turn-reasoning">
          <span className="turn-role">reasoning</span>
          <pre>{item.text}</pre>
        </div>
      );
    case 'call':
      return (
        <div className="turn turn-call">
          <span className="turn-role">
            call <code>{item.name}</code>
            {item.callId && <span className="muted"> {item.callId}</span>}
          </span>
          <pre>{item.arguments}</pre>
          <span className="turn-role">output</span>
          <pre>{item.output ?? '(no output paired with this call)'}</pre>
        </div>
      );
    case 'other':
      return (
        <div className="turn">
          <span className="turn-role">{item.type}</span>
          <pre>{item.json}</pre>
        </div>
      );
  }
}

/** A unified diff, each line in the tone of what it does. */
function Patch({ patch }: { patch: string }) {
  return (
    <pre className="patch" aria-label="Model patch">
      {patch.split('\n').map((line, i) => (
        <span key={i} className={line.startsWith('+') && !line.startsWith('+++') ? 'tone-ok' : line.startsWith('-') && !line.startsWith('---') ? 'tone-fail' : line.startsWith('@@') ? 'muted' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** One rollout read like a transcript: its input, the response in order, the verdict at the end. */
export function TranscriptView({ cellId, unit, onClose }: { cellId: string; unit: string; onClose: () => void }) {
  const transport = useTransport();
  const [state, setState] = useState<{ transcript?: Transcript; error?: Error }>({});
  const panel = useRef<HTMLElement>(null);
  // Opened from a row far down the tables: the panel comes into view, above them.
  useEffect(() => panel.current?.scrollIntoView({ block: 'start' }), [unit]);
  useEffect(() => {
    let live = true;
    setState({});
    transport.call('transcript', cellId, unit).then(
      (transcript) => live && setState({ transcript }),
      (error: Error) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [transport, cellId, unit]);
  const t = state.transcript;
  return (
    <section className="transcript" aria-label={`Transcript of ${unit}`} ref={panel}>
      <header className="transcript-head">
        <h2>Transcript of {unit}</h2>
        {t?.agent && <span className="muted">{t.agent}</span>}
        <span className="spacer" />
        <button onClick={onClose}>Close</button>
      </header>
      {state.error && <CallFailed what={`rollout ${unit}`} error={state.error} />}
      {!t && !state.error && <p className="muted">Reading the rollout…</p>}
      {t && (
        <>
          {t.items.map((item, i) => (
            <Item key={i} item={item} />
          ))}
          <div className="verdict" aria-label="Verdict">
            <span className="turn-role">reward</span> <strong>{JSON.stringify(t.reward)}</strong>
            {t.answer !== null && (
              <>
                {' '}
                · <span className="turn-role">final answer</span> {t.answer.length > 200 ? `${t.answer.slice(0, 200)}…` : t.answer}
              </>
            )}
            <pre>{JSON.stringify(t.verdict, null, 2)}</pre>
          </div>
          {t.patch !== null && <Patch patch={t.patch} />}
          {t.observations && (
            <div className="turn" aria-label="Agent observations">
              <span className="turn-role">observations</span>
              {t.observations.gaps.length > 0 && (
                <ul className="gaps" aria-label="Observation gaps">
                  {t.observations.gaps.map((g, i) => (
                    <li key={i}>gap: {g}</li>
                  ))}
                </ul>
              )}
              <pre>{t.observations.json}</pre>
            </div>
          )}
        </>
      )}
    </section>
  );
}
