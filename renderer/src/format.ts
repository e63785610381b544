import { provenanceOf, provenanceText } from '../../shared/provenance';
import { share } from '../../shared/counts';
import type { CellSummary } from '../../shared/model';

export { counted, dollars, fineDollars, whole } from '../../shared/counts';

/** The last segment of a path, for labels; the full path goes in the title. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || trimmed;
}

/** 1234567 → "1.2M", 90000 → "90k": dense figures for tables. */
export function compact(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (Math.abs(value) >= 1e3) return `${Math.round(value / 1e3)}k`;
  return String(value);
}

export function percent(value: number | null, digits = 1): string {
  return value === null ? '–' : share(value, digits);
}

/** "now", "42 s", "5 min", "3 h", "2 d" ago. */
export function ago(thenMs: number | null, nowMs: number): string {
  if (thenMs === null) return '–';
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (s < 5) return 'now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

/** Where a cell's figures of cost and tokens come from, for a tooltip: the estimate's price, the runner's own figure, a bill. */
export function costTitle(cell: Parameters<typeof provenanceOf>[0]): string {
  return provenanceText(provenanceOf(cell).filter((line) => ['tokens', 'estimate', 'runner', 'billed'].includes(line.figure)));
}

/** Where a cell's success rate and its units come from, for a tooltip. */
export function successTitle(cell: Parameters<typeof provenanceOf>[0]): string {
  return provenanceText(provenanceOf(cell).filter((line) => line.figure === 'success' || line.figure === 'units'));
}

/** What a cell's Episodes figure counts, for its tooltip; a cell of policy versions counts its latest version's evaluation. */
export function episodesTitle(cell: Parameters<typeof provenanceOf>[0] & Pick<CellSummary, 'capabilities' | 'policyVersions'>): string {
  const version = cell.capabilities.versions ? cell.policyVersions.at(-1) : undefined;
  return [
    version ? `${version}, the latest policy version: the episodes of its official evaluation` : null,
    provenanceText(provenanceOf(cell).filter((line) => line.figure === 'units')),
    cell.episodes.planned === null ? '?: how many are planned is not written yet' : null,
  ]
    .filter(Boolean)
    .join('\n');
}
