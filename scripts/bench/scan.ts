// npm run bench:scan: scan a generated runs root of 10,000 coding-agent cells of 100 episodes each,
// with `cellwatch status --json`, beside `find ROOT -name summary.json | wc -l` on the same tree.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, ROOT, row } from './measure';

const CELLS = Number(process.env.BENCH_CELLS ?? 10_000);
const EPISODES = 100;
const PER_FOLDER = 500;

function generate(root: string): void {
  const planned = Array.from({ length: EPISODES }, (_, i) => i);
  const statuses = ['evaluated', 'evaluated', 'evaluated', 'timeout', 'rate_limited', 'infra_error', 'error'];
  for (let i = 0; i < CELLS; i++) {
    const name = `std_sdk_model-${i % 7}_bare_e${i}`;
    const cell = join(root, `batch_${String(Math.floor(i / PER_FOLDER)).padStart(2, '0')}`, name);
    mkdirSync(join(cell, 'episodes', '0099'), { recursive: true });
    writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: name, cell: { harness: 'sdk', model: `model-${i % 7}`, condition: 'bare', effort: 'default' }, protocol: { episodes: planned } }));
    const episodes = Object.fromEntries(planned.map((e) => [String(e), { status: statuses[(e + i) % statuses.length], success: (e * 7 + i) % 3 === 0, engaged: e % 2 === 0, tool_calls: 40, actions: 120, wall_s: 500.5 }]));
    writeFileSync(join(cell, 'summary.json'), JSON.stringify({ run: name, finished: true, planned, episodes, aggregate: {} }));
    writeFileSync(join(cell, 'episodes', '0099', 'trajectory.jsonl'), '{"seq": 0, "ev": "episode_start"}\n');
  }
}

const root = join(tmpdir(), `cellwatch-bench-scan-${process.pid}`);
try {
  console.log(`Generating ${CELLS.toLocaleString('en-US')} coding-agent cells of ${EPISODES} episodes (run.json, summary.json, the newest trajectory) in ${root}...`);
  generate(root);
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);

  const find = await measure('sh', ['-c', `find '${root}' -name summary.json | wc -l`]);
  const scan = await measure(process.execPath, [join(ROOT, 'out/cli.mjs'), 'status', '--json', root], { rss: true });
  const found = (JSON.parse(scan.stdout) as { cells: unknown[] }).cells.length;
  if (found !== CELLS || Number(find.stdout.trim()) !== CELLS) throw new Error(`expected ${CELLS} cells, status found ${found}, find ${find.stdout.trim()}`);

  console.log('');
  console.log(row('find -name summary.json | wc -l', `${(find.wallMs / 1000).toFixed(2)} s`, 'baseline: lists the files, reads none'));
  console.log(row('cellwatch status --json', `${(scan.wallMs / 1000).toFixed(2)} s`, `peak RSS ${scan.peakRssMb?.toFixed(0)} MB; reads and scores every cell`));
  console.log(row('ratio', `${(scan.wallMs / find.wallMs).toFixed(1)}x`, `${((scan.wallMs / CELLS) * 1000).toFixed(0)} µs a cell`));
} finally {
  rmSync(root, { recursive: true, force: true });
}
