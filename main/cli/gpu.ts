import { parseArgs } from 'node:util';
import { sampleMachine } from '../gpu/system';
import { outJson, type Io } from './io';
import { table } from './table';

export const GPU_HELP = `cellwatch gpu [--json]

One sample of this machine: each NVIDIA GPU's memory (nvidia-smi, with a timeout), the processes that
hold GPU memory, CPU load, memory and disks. A machine without a GPU says so.
CELLWATCH_NVIDIA_SMI names another nvidia-smi to run.`;

export async function gpu(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } } });
  const sample = await sampleMachine(process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi');
  if (values.json) {
    outJson(io, sample, 2);
    return 0;
  }
  if (sample.gpus.length) {
    const rows = sample.gpus.map((g) => [
      String(g.index),
      g.name,
      `${g.usedMib ?? '?'} / ${g.totalMib ?? '?'} MiB`,
      `${g.freeMib ?? '?'} MiB`,
      g.utilizationPct === null ? 'n/a' : `${g.utilizationPct}%`,
    ]);
    io.out(table(['GPU', 'NAME', 'USED / TOTAL', 'FREE', 'UTIL'], rows, [true, false, true, true, true]));
    if (sample.processes.length) io.out(`\n${table(['PID', 'GPU MEMORY'], sample.processes.map((p) => [String(p.pid), p.usedMib === null ? 'n/a' : `${p.usedMib} MiB`]), [true, true])}`);
  }
  for (const other of sample.otherGpus) io.out(`${other.vendor} ${other.model}${other.vramMib ? `, ${other.vramMib} MiB` : ''} (no nvidia-smi: memory use unknown)`);
  if (sample.memory) io.out(`\nCPU ${sample.cpuLoadPct ?? '?'}% · memory ${sample.memory.usedMib} / ${sample.memory.totalMib} MiB`);
  for (const problem of sample.problems) io.err(problem);
  return 0;
}
