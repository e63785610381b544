import { describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { readHostsFiles } from './hosts-file';

describe('hosts files', () => {
  it("turns each host's jobs folder into a runs root on that host, and names a broken entry by file", async () => {
    const tmp = tempDir();
    try {
      writeTree(tmp.path, {
        'hosts.lab.local.yml': 'gpu1: {ssh: gpu1, jobs: /data/me/jobs/agents, benchmarks: [habitat]}\ngpu2: {jobs: /scratch/runs}\nbad: {ssh: gpu3}\n',
        'hosts.yml': 'gpu4:\n  ssh: big-box\n  jobs: /runs\n',
        'notes.yml': 'gpu9: {jobs: /nope}\n',
      });
      const { roots, problems } = await readHostsFiles(tmp.path);
      expect(roots).toEqual(['gpu1:/data/me/jobs/agents', 'gpu2:/scratch/runs', 'big-box:/runs']);
      expect(problems).toEqual([{ file: `${tmp.path}/hosts.lab.local.yml`, message: 'host bad: "jobs" must be an absolute path on that host', severity: 'error' }]);
    } finally {
      tmp.remove();
    }
  });
});
