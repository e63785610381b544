import { useApp, useFeed } from '../context';
import { LOCAL } from '../../../shared/address';
import { gib } from './gib';

/** The compact meters of the top bar: one per GPU, used of total, clickable to the GPU view. */
export function GpuMeters() {
  const gpu = useFeed((data) => data.gpuOf(LOCAL)).value;
  const setView = useApp((s) => s.setView);
  const latest = gpu?.history.at(-1);
  if (!latest) return <span className="gpu-meter muted" title={gpu?.problems.at(-1)?.message ?? ''}>no GPU</span>;
  return (
    <button className="gpu-meters" onClick={() => setView('gpu')} title="GPU memory (nvidia-smi)">
      {latest.gpus.map((g) => {
        const fraction = g.totalMib && g.usedMib !== null ? g.usedMib / g.totalMib : 0;
        return (
          <span key={g.index} className="gpu-meter" role="meter" aria-label={`GPU${g.index} memory`} aria-valuenow={g.usedMib ?? 0} aria-valuemax={g.totalMib ?? 0}>
            GPU{g.index} <span className="bar small"><span className="fill tone-fill-amber" style={{ width: `${fraction * 100}%` }} /></span> {gib(g.usedMib)}/{gib(g.totalMib)} GiB
          </span>
        );
      })}
    </button>
  );
}
