import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../runners/testing';
import { readHostsFiles } from './hosts-file';

describe('hosts files', () => {
  it("as seed 001 writes them: an ssh alias's jobs folder on that host, an entry without one on this machine (relative to the file's folder)", async () => {
    const tmp = tempDir();
    try {
      writeTree(tmp.path, {
        'hosts.me.local.yml': 'local:  {jobs: ../robot_coding_bench/jobs/agents}\ngpu1: {ssh: gpu1, jobs: /data/me/jobs/agents, benchmarks: [habitat]}\nscratch: {jobs: /scratch/runs}\n',
        'hosts.yml': 'gpu4:\n  ssh: big-box\n  jobs: /runs\n  runs: [codex-gpt6_luna-xhigh, claude_code-claude_opus_5_5-adaptive]\n',
        'notes.yml': 'gpu9: {jobs: /nope}\n',
      });
      const { roots, problems } = await readHostsFiles(tmp.path);
      expect(roots).toEqual([
        { address: join(tmp.path, '..', 'robot_coding_bench/jobs/agents'), limit: null },
        { address: 'gpu1:/data/me/jobs/agents', limit: { benchmarks: ['habitat'], runs: [] } },
        { address: '/scratch/runs', limit: null },
        { address: 'big-box:/runs', limit: { benchmarks: [], runs: ['codex-gpt6_luna-xhigh', 'claude_code-claude_opus_5_5-adaptive'] } },
      ]);
      expect(problems).toEqual([]);
    } finally {
      tmp.remove();
    }
  });

  it('names each malformed entry by file and line, and keeps the others', async () => {
    const tmp = tempDir();
    try {
      writeTree(tmp.path, {
        'hosts.a.local.yml': 'good: {ssh: gpu1, jobs: /runs}\nbad: {ssh: gpu3}\nrelative: {ssh: gpu2, jobs: runs/agents}\nodd: 12\nlisted: {ssh: gpu5, jobs: /runs, benchmarks: {robolab: 1}}\nrunlist: {ssh: gpu6, jobs: /runs, runs: [codex-x-high, 7]}\n',
        'hosts.b.local.yml': 'gpu1: {ssh: gpu1, jobs: /runs\nother: {}\n',
      });
      const { roots, problems } = await readHostsFiles(tmp.path);
      expect(roots).toEqual([{ address: 'gpu1:/runs', limit: null }]);
      const a = join(tmp.path, 'hosts.a.local.yml');
      expect(problems.map((p) => [p.file, p.line, p.message])).toEqual([
        [a, 2, 'host bad: needs "jobs", the folder its runs are in'],
        [a, 3, 'host relative: "jobs" must be an absolute path on gpu2, not "runs/agents"'],
        [a, 4, 'host odd: needs "jobs", the folder its runs are in'],
        [a, 5, 'host listed: "benchmarks" must be a list of names'],
        [a, 6, 'host runlist: "runs" must be a list of names'],
        [join(tmp.path, 'hosts.b.local.yml'), expect.any(Number), expect.stringMatching(/^not valid YAML: /)],
      ]);
    } finally {
      tmp.remove();
    }
  });
});
