import { describe, expect, it } from 'vitest';
import { withPoint } from './system';

const sample = (cpu: number) => ({ cpuLoadPct: cpu, memory: { totalMib: 1000, usedMib: 250 }, disks: [{ mount: '/', sizeGib: 100, usedGib: 40 }, { mount: '/empty', sizeGib: 0, usedGib: 0 }], otherGpus: [] });

describe("the machine's last ten minutes", () => {
  it('keeps each sample as shares, and lets go of those older than ten minutes', () => {
    const t0 = 1_000_000_000;
    let history = withPoint([], sample(50), t0);
    expect(history).toEqual([{ t: t0, cpu: 0.5, memory: 0.25, disks: { '/': 0.4 } }]);
    history = withPoint(history, sample(20), t0 + 5 * 60_000);
    history = withPoint(history, sample(80), t0 + 10 * 60_000 + 1);
    expect(history.map((p) => p.cpu)).toEqual([0.2, 0.8]);
  });
});
