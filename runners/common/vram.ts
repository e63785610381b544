import type { VramSample } from '../../shared/cell-detail';
import { num, timestampMs } from './values';

/** The one reading of a `vram.jsonl` line: `t` (epoch seconds or ISO 8601), `gpu`, `used_mib`, `total_mib`. */
export function vramSample(value: Record<string, unknown>): VramSample | null {
  const t = timestampMs(value.t);
  const used = num(value.used_mib);
  return t === null || used === null ? null : { t, gpu: num(value.gpu) ?? 0, usedMib: used, totalMib: num(value.total_mib) };
}
