// Parsing what real nvidia-smi prints: CSV with or without a header, with or without units,
// `[N/A]` and `[Not Supported]` for values a card (MIG, Windows WDDM) does not report.
import type { GpuProcess, GpuReading } from '../../shared/machine';

/** The columns Cellwatch asks for, in order. */
export const GPU_QUERY = ['index', 'name', 'memory.total', 'memory.used', 'memory.free', 'utilization.gpu'] as const;
export const APPS_QUERY = ['gpu_uuid', 'pid', 'used_memory'] as const;

export type { GpuProcess, GpuReading };

/** A figure without its unit; null for `[N/A]`, `[Not Supported]` or anything else that is no number. */
export function figure(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(MiB|GiB|%|W|MHz|C)?\s*$/.exec(value);
  if (!match) return null;
  const number = Number(match[1]);
  return match[2] === 'GiB' ? number * 1024 : number;
}

function cells(line: string): string[] {
  return line.split(',').map((c) => c.trim());
}

/** Column names of a header line (`memory.total [MiB]` → `memory.total`), or null when the line is data. */
function header(line: string, expect: string): string[] | null {
  const names = cells(line).map((c) => c.replace(/\s*\[[^\]]*\]$/, ''));
  return names.includes(expect) ? names : null;
}

/** Rows of an nvidia-smi CSV as name → value, using its header when it has one, else `columns`. */
export function parseCsv(text: string, columns: readonly string[], key: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  let names: readonly string[] = columns;
  const rows: Record<string, string>[] = [];
  for (const line of lines) {
    const heading = header(line, key);
    if (heading) {
      names = heading;
      continue;
    }
    const values = cells(line);
    rows.push(Object.fromEntries(names.map((name, i) => [name, values[i] ?? ''])));
  }
  return rows;
}

export function parseGpus(text: string): GpuReading[] {
  return parseCsv(text, GPU_QUERY, 'memory.total').flatMap((row) => {
    const index = figure(row.index);
    if (index === null) return [];
    return [{
      index,
      name: row.name ?? '',
      totalMib: figure(row['memory.total']),
      usedMib: figure(row['memory.used']),
      freeMib: figure(row['memory.free']),
      utilizationPct: figure(row['utilization.gpu']),
    }];
  });
}

export function parseProcesses(text: string): GpuProcess[] {
  return parseCsv(text, APPS_QUERY, 'pid').flatMap((row) => {
    const pid = figure(row.pid);
    if (pid === null) return [];
    const uuid = row.gpu_uuid;
    return [{ pid, gpuUuid: uuid && !uuid.startsWith('[') ? uuid : null, usedMib: figure(row.used_memory ?? row.used_gpu_memory) }];
  });
}
