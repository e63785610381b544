import { useEffect, useState } from 'react';
import type { Transcript, TranscriptItem } from '../../../shared/cell-detail';
import type { PairedSide } from '../../../shared/mcnemar';
import { firstDivergence, type Divergence } from '../../../shared/divergence';
import { CallFailed } from '../CallFailed';
import { useData } from '../context';
import { TranscriptItems } from '../cell-view/TranscriptView';
import { whole } from '../format';
import { splitId } from './SideEpisode';

/** Items shown before a side's divergent action: what it saw and said on the way there. */
const CONTEXT = 4;

const WHY: Record<NonNullable<Divergence['why']>, string> = {
  tool: 'a different tool',
  arguments: 'the same tool with other arguments',
  'a ended': "A's actions had ended",
  'b ended': "B's actions had ended",
};

const actionText = (item: TranscriptItem | undefined) => (item?.kind === 'call' ? `${item.name} ${item.arguments.replace(/\s+/g, ' ')}` : 'nothing more');

function SideContext({ label, items, at }: { label: string; items: TranscriptItem[]; at: number | null }) {
  const end = at === null ? items.length : at + 1;
  const from = Math.max(0, end - 1 - CONTEXT);
  return (
    <section className="divergence-side" aria-label={`${label} at the divergence`}>
      <h3 className="section-title">{label}</h3>
      {from > 0 && <p className="muted">{whole(from)} items before</p>}
      <TranscriptItems items={items.slice(from, end)} current={at === null ? undefined : at - from} />
      {at === null && <p className="muted">its actions had ended</p>}
    </section>
  );
}

/** For a discordant unit: both sides' actions aligned step by step, the first step where they differ, each side's context there. */
export function FirstDivergence({ a, b, unit }: { a: PairedSide; b: PairedSide; unit: string }) {
  const { cell } = useData();
  const [sides, setSides] = useState<{ a: Transcript; b: Transcript } | { error: Error } | null>(null);
  const [ida, idb] = [splitId(a.id), splitId(b.id)];
  const comparable = ida.version === null && idb.version === null;
  useEffect(() => {
    if (!comparable) return;
    let live = true;
    setSides(null);
    Promise.all([cell.transcript(ida.cellId, unit), cell.transcript(idb.cellId, unit)]).then(
      ([ta, tb]) => live && setSides({ a: ta, b: tb }),
      (error: Error) => live && setSides({ error }),
    );
    return () => {
      live = false;
    };
  }, [cell, ida.cellId, idb.cellId, unit, comparable]);
  if (!comparable) return null;
  if (!sides) return <p className="muted">Reading both sides of {unit}…</p>;
  if ('error' in sides) return <CallFailed what={`the transcripts of ${unit}`} error={sides.error} />;
  const divergence = firstDivergence(sides.a.items, sides.b.items);
  const { step, actions } = divergence;
  return (
    <section className="divergence" aria-label="First divergence">
      <h2 className="section-title">First divergence</h2>
      {step === null ? (
        <p>Their {whole(actions.a)} actions are alike step by step: they differ in what came back, not in what they did.</p>
      ) : (
        <>
          <p className="divergence-summary">
            At step {whole(step + 1)} ({whole(step)} alike before it, of {whole(actions.a)} and {whole(actions.b)} actions): {WHY[divergence.why as NonNullable<Divergence['why']>]}.
            <br />A: <code>{actionText(sides.a.items[divergence.a ?? -1])}</code>
            <br />B: <code>{actionText(sides.b.items[divergence.b ?? -1])}</code>
          </p>
          <div className="side-by-side">
            <SideContext label="A" items={sides.a.items} at={divergence.a} />
            <SideContext label="B" items={sides.b.items} at={divergence.b} />
          </div>
        </>
      )}
    </section>
  );
}
