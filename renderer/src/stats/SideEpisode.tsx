import { useEffect } from 'react';
import type { PairedSide } from '../../../shared/mcnemar';
import { useApp } from '../context';
import { CellProvider, useCell } from '../cell-view/context';
import { EventStream } from '../cell-view/EventStream';
import { FramesViewer } from '../cell-view/FramesViewer';

export function splitId(id: string): { cellId: string; version: string | null } {
  const match = /^(.*)@(v\d{3})$/.exec(id);
  return match ? { cellId: match[1] as string, version: match[2] as string } : { cellId: id, version: null };
}

function EpisodeEvents({ cellId, episode }: { cellId: string; episode: string }) {
  const openStream = useCell((s) => s.openStream);
  const events = useCell((s) => s.events);
  const startedMidFile = useCell((s) => s.startedMidFile);
  useEffect(() => void openStream(episode), [openStream, episode]);
  return (
    <>
      {/* A paired episode has ended on both sides: its record is complete. */}
      <EventStream events={events} startedMidFile={startedMidFile} title={`Episode ${episode}`} live={false} />
      <FramesViewer cellId={cellId} source={{ kind: 'episode', episode }} refreshKey={events.length} live={false} />
    </>
  );
}

/** One side's record of an episode: its events and frames, or a policy version's replay on that seed. */
export function SideEpisode({ label, side, episode }: { label: string; side: PairedSide; episode: string }) {
  const { cellId, version } = splitId(side.id);
  const streams = useApp((s) => s.cells.find((c) => c.id === cellId)?.capabilities.episodeStreams ?? false);
  let body;
  if (version) body = <FramesViewer cellId={cellId} source={{ kind: 'replay', version, seed: episode }} refreshKey={0} live={false} />;
  else if (streams) {
    body = (
      <CellProvider cellId={cellId}>
        <EpisodeEvents cellId={cellId} episode={episode} />
      </CellProvider>
    );
  } else body = <p className="muted">{side.format} records no events for a single episode; its outcome is in the table.</p>;
  return (
    <section className="side-episode" aria-label={`${label}: ${side.name}, episode ${episode}`}>
      <h2 className="section-title">
        {label} · {side.name}
      </h2>
      {body}
    </section>
  );
}
