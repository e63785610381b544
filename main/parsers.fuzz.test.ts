// Property tests of the parsers of what hosts and tools send: a remote root's snapshot, ~/.ssh/config,
// nvidia-smi's CSV. None may throw, whatever arrives; each keeps only what it can vouch for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGpus, parseProcesses } from './gpu/parse';
import { parseSshConfig, resolveHost } from './ssh/config';
import { findCells } from './scan';
import { SnapshotFs } from './ssh/snapshot';
import { localFs } from '../runners';

const bytes = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a).toString('latin1'));

describe('parsers, fuzzed', () => {
  it("a root's snapshot never names a cell outside its root, whatever the host printed", async () => {
    const sep = '\u0001';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(bytes, fc.constantFrom('F /runs/a/run.json', 'F /etc/run.json', 'F /runs/../etc/run.json', 'E d 4096 1.5 /runs/a', 'E f 30 1.5 /runs/a/run.json', '{"runner": "coding-agent"}', sep, '\0')), { maxLength: 12 }), async (parts) => {
        const snapshot = new SnapshotFs(parts.join(''), '/runs', 3, localFs);
        const found = await findCells(snapshot, '/runs', []);
        for (const cell of found) {
          expect(cell.dir.startsWith('/runs/')).toBe(true);
          expect(cell.dir.split('/')).not.toContain('..');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('~/.ssh/config of any text resolves a host without throwing, to a port that is a number', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(bytes, fc.constantFrom('Host *', 'Match all', 'Match exec x', 'Port 2222', 'User me', 'Include nowhere', 'IdentitiesOnly yes', 'HostName %h.lab')), { maxLength: 20 }), async (lines) => {
        const host = resolveHost('gpu1', await parseSshConfig(lines.join('\n')), '/home/me', 'me');
        expect(typeof host.hostName).toBe('string');
        expect(typeof host.port).toBe('number');
      }),
      { numRuns: 300 },
    );
  });

  it('nvidia-smi CSV of any text gives GPUs and processes with numbers or nulls, never NaN', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(bytes, fc.constantFrom('0, NVIDIA H200, 143771, 16959, 126199, 10', 'index, name, memory.total [MiB]', '[N/A]', 'GPU-0, 1234, 56 MiB')), { maxLength: 10 }), (lines) => {
        const text = lines.join('\n');
        for (const gpu of parseGpus(text)) for (const value of [gpu.totalMib, gpu.usedMib, gpu.freeMib, gpu.utilizationPct]) expect(value === null || Number.isFinite(value)).toBe(true);
        for (const p of parseProcesses(text)) expect(Number.isFinite(p.pid)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
