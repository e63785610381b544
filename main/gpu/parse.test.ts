import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figure, GPU_QUERY, parseCsv, parseGpus, parseProcesses } from './parse';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The output of each run of a command in a capture file (captures run some commands twice: idle, load). */
function sections(capture: string, command: RegExp): string[] {
  const lines = capture.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('# $ ') || !command.test(lines[i]!.slice(4))) continue;
    const output: string[] = [];
    for (let j = i + 2; j < lines.length && !/^#{20,}/.test(lines[j]!); j++) output.push(lines[j]!);
    found.push(output.join('\n'));
  }
  return found;
}

describe('nvidia-smi figures', () => {
  it.each([
    ['32362 MiB', 32362],
    ['100 %', 100],
    ['80', 80],
    ['[N/A]', null],
    ['[Not Supported]', null],
    ['[Requested functionality has been deprecated]', null],
    ['', null],
  ])('%j reads as %j', (text, value) => expect(figure(text)).toBe(value));
});

describe('every real capture', () => {
  const captures = readdirSync(join(FIXTURES, 'captures'));
  it.each(captures)('%s: its --query-gpu output gives each GPU with memory, total = reserved + used + free', (file) => {
    const text = readFileSync(join(FIXTURES, 'captures', file), 'utf8');
    const runs = sections(text, /^nvidia-smi --query-gpu=/);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const gpus = parseGpus(run);
      const reserved = parseCsv(run, GPU_QUERY, 'memory.total').map((row) => figure(row['memory.reserved']));
      expect(gpus.length).toBeGreaterThan(0);
      expect(reserved).toHaveLength(gpus.length);
      gpus.forEach((gpu, i) => {
        expect(gpu.name).toMatch(/NVIDIA/);
        expect(gpu.totalMib).toBeGreaterThan(0);
        expect(gpu.usedMib).toEqual(expect.any(Number));
        expect(gpu.freeMib).toEqual(expect.any(Number));
        // nvidia-smi rounds each of the four figures to the MiB on its own, so the sum may be 2 off.
        expect(Math.abs(gpu.totalMib! - (reserved[i]! + gpu.usedMib! + gpu.freeMib!))).toBeLessThanOrEqual(2);
      });
    }
  });

  it.each(captures)('%s: its --query-compute-apps output parses, header only meaning no process', (file) => {
    const text = readFileSync(join(FIXTURES, 'captures', file), 'utf8');
    const runs = sections(text, /^nvidia-smi --query-compute-apps=/);
    // Every capture ran it idle and under load: a capture that lost its sections would pass with nothing checked.
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      const processes = parseProcesses(run);
      const lines = run.split('\n').filter((l) => /^\d{4}\//.test(l));
      expect(processes).toHaveLength(lines.length);
      if (file.startsWith('windows')) expect(processes.every((p) => p.usedMib === null)).toBe(true);
      else expect(processes.every((p) => p.usedMib !== null && p.usedMib > 0)).toBe(true);
    }
  });

  it('reads the H200 under load with its processes', () => {
    const text = readFileSync(join(FIXTURES, 'captures', 'linux-x86_64__nvidia-h200__590.48.01.txt'), 'utf8');
    const [, load] = sections(text, /^nvidia-smi --query-compute-apps=/);
    const uuid = 'GPU-00000000-0000-0000-0000-000000000000';
    expect(parseProcesses(load as string)).toEqual([
      { pid: 10291, gpuUuid: uuid, usedMib: 2566 },
      { pid: 10293, gpuUuid: uuid, usedMib: 1542 },
      { pid: 10309, gpuUuid: uuid, usedMib: 28234 },
    ]);
  });
});

describe('the query Cellwatch runs (noheader, nounits)', () => {
  const files = readdirSync(join(FIXTURES, 'noheader-nounits'));
  it.each(files)('%s', (file) => {
    const [gpu] = parseGpus(readFileSync(join(FIXTURES, 'noheader-nounits', file), 'utf8'));
    expect(gpu).toMatchObject({ index: 0, name: expect.stringMatching(/^NVIDIA /) });
    expect(gpu!.totalMib).toBeGreaterThan(gpu!.usedMib!);
    if (file.includes('mig')) expect(gpu!.utilizationPct).toBeNull();
    else expect(gpu!.utilizationPct).toEqual(expect.any(Number));
  });

  it('reads the H200 MIG card: memory known, utilization [N/A]', () => {
    expect(parseGpus('0, NVIDIA H200, 143771, 16959, 126199, [N/A]\n')).toEqual([
      { index: 0, name: 'NVIDIA H200', totalMib: 143771, usedMib: 16959, freeMib: 126199, utilizationPct: null },
    ]);
  });

  it('says nothing runs when compute-apps prints only its header or nothing', () => {
    expect(parseProcesses('pid, used_gpu_memory [MiB]\n')).toEqual([]);
    expect(parseProcesses('')).toEqual([]);
  });
});

describe('the disk of a runs root', () => {
  it('is the mount that is its longest prefix', async () => {
    const { diskOf } = await import('./system');
    const disks = [{ mount: '/' }, { mount: '/data' }, { mount: '/data2' }];
    expect(diskOf(disks, '/data/me/jobs')?.mount).toBe('/data');
    expect(diskOf(disks, '/data2')?.mount).toBe('/data2');
    expect(diskOf(disks, '/home/me')?.mount).toBe('/');
  });
});
