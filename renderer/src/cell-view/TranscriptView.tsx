import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useKey } from '../keys';
import { counted, whole } from '../format';
import type { ModelCallSent, Transcript, TranscriptItem } from '../../../shared/cell-detail';
import { ObservedView } from './ObservedView';
import { Timeline } from './Timeline';
import { CallFailed } from '../CallFailed';
import { useData } from '../context';

/** A long payload folds: its first lines show, the rest opens on a click. */
const FOLD_LINES = 12;

function Payload({ text, label }: { text: string; label: string }) {
  const lines = text.split('\n');
  if (lines.length <= FOLD_LINES && text.length <= 1200) return <pre aria-label={label}>{text}</pre>;
  return (
    <details>
      <summary>
        <pre aria-label={label}>{lines.slice(0, FOLD_LINES).join('\n').slice(0, 1200)}</pre>
        <span className="muted">{counted(lines.length, 'line')}, {counted(text.length, 'character')}: open for all</span>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}

/** When an item happened: "+12.3 s" from the start, its clock time on hover. */
function When({ item }: { item: TranscriptItem }) {
  if (item.offsetS === undefined) return null;
  const absolute = item.epochS === undefined ? undefined : new Date(item.epochS * 1000).toISOString();
  return (
    <span className="muted turn-when" title={absolute}>
      {' '}
      +{item.offsetS.toFixed(1)} s
    </span>
  );
}

/** What the model call that wrote a message was sent, and its tokens in and out, where the log says them. */
function Sent({ sent }: { sent: ModelCallSent | undefined }) {
  if (!sent) return null;
  const tokens = sent.inputTokens === null && sent.outputTokens === null ? '' : ` · ${sent.inputTokens === null ? '?' : whole(sent.inputTokens)} tokens in, ${sent.outputTokens === null ? '?' : whole(sent.outputTokens)} out`;
  return (
    <span className="muted" title="The messages this model call was given (its context), and its tokens as the log says them">
      {' · '}sent {counted(sent.messages, 'message')}
      {tokens}
    </span>
  );
}

function Item({ item, frameUrl }: { item: TranscriptItem; frameUrl?: (frame: string) => string | null }) {
  switch (item.kind) {
    case 'input':
    case 'message':
      return (
        <div className={`turn turn-${item.kind}`}>
          <span className="turn-role">
            {item.kind === 'input' ? `${item.role} (input)` : item.role}
            <Sent sent={item.sent} />
            <When item={item} />
          </span>
          <pre>{item.text}</pre>
        </div>
      );
    case 'reasoning':
      return (
        <div className="turn turn-reasoning">
          <span className="turn-role">
            reasoning
            <When item={item} />
          </span>
          <pre>{item.text}</pre>
        </div>
      );
    case 'call': {
      const frame = item.frame ? frameUrl?.(item.frame) : null;
      return (
        <div className="turn turn-call">
          <span className="turn-role">
            call <code>{item.name}</code>
            {item.callId && <span className="muted"> {item.callId}</span>}
            <When item={item} />
          </span>
          <Payload text={item.arguments} label={`Arguments of ${item.callId ?? item.name}`} />
          <span className="turn-role">output</span>
          {item.output === null ? <pre className="muted">(no output paired with this call)</pre> : <Payload text={item.output} label={`Output of ${item.callId ?? item.name}`} />}
          {frame && <img className="turn-frame" src={frame} alt={`frame ${item.frame}`} width={168} height={168} />}
        </div>
      );
    }
    case 'outcome':
      return (
        <div className="turn turn-outcome" aria-label="Outcome">
          <span className="turn-role">
            end
            <When item={item} />
          </span>{' '}
          <strong>{item.text}</strong>
        </div>
      );
    case 'other':
      return (
        <div className="turn">
          <span className="turn-role">
            {item.type}
            <When item={item} />
          </span>
          <Payload text={item.json} label={item.type} />
        </div>
      );
  }
}

/** The words of an item, as a search looks for them. */
export function itemText(item: TranscriptItem): string {
  if (item.kind === 'call') return `${item.name} ${item.arguments} ${item.output ?? ''}`;
  if (item.kind === 'other') return `${item.type} ${item.json}`;
  return item.text;
}

/**
 * A transcript's items in order, each picked (its event inspected) on a click where it came from one;
 * `current`, the item the keyboard is on, and `found`, those a search found, are marked.
 */
export function TranscriptItems({ items, frameUrl, onPick, current, found }: { items: TranscriptItem[]; frameUrl?: (frame: string) => string | null; onPick?: (seq: number) => void; current?: number; found?: ReadonlySet<number> }) {
  return (
    <>
      {items.map((item, i) => (
        <div
          key={i}
          className={`turn-place${i === current ? ' current' : ''}${found?.has(i) ? ' found' : ''}`}
          data-turn={i}
          aria-current={i === current ? 'true' : undefined}
          onClick={onPick && typeof item.seq === 'number' ? () => onPick(item.seq as number) : undefined}
        >
          <Item item={item} frameUrl={frameUrl} />
        </div>
      ))}
    </>
  );
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

/** The item `from` moves to by `step` among `of` (all items, or those a search found); null: none. */
function stepTo(from: number, step: 1 | -1, of: readonly number[]): number | null {
  const after = step > 0 ? of.find((i) => i > from) : [...of].reverse().find((i) => i < from);
  return after ?? null;
}

/**
 * One unit read like a transcript, the whole of the cell view's room (its own tab and link): its input, the
 * response in order, the verdict at the end. j and k move between its turns, / searches it, Enter and n
 * go to the next match (Shift+N the one before).
 */
export function TranscriptView({ cellId, unit, onClose }: { cellId: string; unit: string; onClose: () => void }) {
  const { cell } = useData();
  const [state, setState] = useState<{ transcript?: Transcript; error?: Error }>({});
  const [current, setCurrent] = useState(-1);
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    let live = true;
    setState({});
    setCurrent(-1);
    cell.transcript(cellId, unit).then(
      (transcript) => live && setState({ transcript }),
      (error: Error) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [cell, cellId, unit]);
  const items = state.transcript?.items;
  const found = useMemo(() => {
    const words = query.trim().toLowerCase();
    return words && items ? items.flatMap((item, i) => (itemText(item).toLowerCase().includes(words) ? [i] : [])) : [];
  }, [items, query]);
  const foundSet = useMemo(() => new Set(found), [found]);
  const go = useCallback(
    (step: 1 | -1, among: 'turns' | 'found') => {
      const of = among === 'found' ? found : Array.from({ length: items?.length ?? 0 }, (_, i) => i);
      const next = stepTo(current, step, of) ?? (among === 'found' ? (step > 0 ? of[0] : of.at(-1)) : null);
      if (next === null || next === undefined) return;
      setCurrent(next);
      panel.current?.querySelector(`[data-turn="${next}"]`)?.scrollIntoView({ block: 'center' });
    },
    [current, found, items],
  );
  useKey('j', useCallback(() => go(1, 'turns'), [go]));
  useKey('k', useCallback(() => go(-1, 'turns'), [go]));
  useKey('n', useCallback(() => go(1, 'found'), [go]));
  useKey('N', useCallback(() => go(-1, 'found'), [go]));
  useKey('/', useCallback(() => search.current?.focus(), []));
  const t = state.transcript;
  return (
    <section className="transcript" aria-label={`Transcript of ${unit}`} ref={panel}>
      <header className="transcript-head">
        <h2>Transcript of {unit}</h2>
        {t?.agent && <span className="muted">{t.agent}</span>}
        <span className="spacer" />
        {t && (
          <>
            <input
              ref={search}
              type="search"
              aria-label="Search the transcript"
              placeholder="Search  /"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') go(e.shiftKey ? -1 : 1, 'found');
                else if (e.key === 'Escape') {
                  // Leaves the field keeping the search (a search field's own Esc would empty it): n and N go on.
                  e.preventDefault();
                  e.stopPropagation();
                  e.currentTarget.blur();
                }
              }}
            />
            <span className="muted" role="status" aria-label="Matches">
              {query.trim() ? `${found.includes(current) ? `${found.indexOf(current) + 1} of ` : ''}${counted(found.length, 'turn')}` : `${counted(t.items.length, 'turn')} · j/k`}
            </span>
          </>
        )}
        <button onClick={onClose}>Close</button>
      </header>
      {state.error && <CallFailed what={`rollout ${unit}`} error={state.error} />}
      {!t && !state.error && <p className="muted">Reading the rollout…</p>}
      {t && (
        <>
          <Timeline
            items={t.items}
            current={current}
            onPick={(index) => {
              setCurrent(index);
              panel.current?.querySelector(`[data-turn="${index}"]`)?.scrollIntoView({ block: 'center' });
            }}
          />
          <TranscriptItems items={t.items} current={current} found={foundSet} />
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
          {t.observed && <ObservedView observed={t.observed} />}
        </>
      )}
    </section>
  );
}
