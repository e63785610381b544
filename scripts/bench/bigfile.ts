// npm run bench:bigfile: a 1 GB trajectory opens without being read whole; its last events show first.
// Prints the time to first events and peak RSS beside `tail -n 100` and `wc -l` on the same file.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { measure, ROOT, row } from './measure';

const BYTES = Number(process.env.BENCH_BYTES ?? 1024 ** 3);
const home = mkdtempSync(join(tmpdir(), 'cellwatch-bench-bigfile-'));
const cell = join(home, 'runs', 'std_sdk_big_bare_default');
const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');

try {
  mkdirSync(join(cell, 'episodes', '0000'), { recursive: true });
  writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: 'std_sdk_big_bare_default', protocol: { episodes: [0] } }));
  console.log(`Writing a ${(BYTES / 1024 ** 3).toFixed(2)} GB trajectory...`);
  const out = createWriteStream(trajectory);
  let written = 0;
  let seq = 0;
  const text = 'x'.repeat(120);
  while (written < BYTES) {
    const batch: string[] = [];
    for (let i = 0; i < 5000; i++) batch.push(JSON.stringify({ seq: seq++, t: 1764403200 + seq / 10, ev: 'agent_message', text }));
    const chunk = `${batch.join('\n')}\n`;
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

  const tail = await measure('tail', ['-n', '100', trajectory]);
  const wc = await measure('wc', ['-l', trajectory]);
  const open = await measure(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/bench/bigfile-open.ts'), join(home, 'runs'), join(home, 'config')]);
  const result = JSON.parse(open.stdout.trim().split('\n').at(-1) as string) as { firstEventsMs: number; events: number; lastSeq: number; peakRssMb: number };
  if (result.lastSeq !== seq - 1) throw new Error(`the last event shown is ${result.lastSeq}, the file's last is ${seq - 1}`);

  console.log('');
  console.log(row('tail -n 100', `${tail.wallMs.toFixed(0)} ms`, 'baseline: seeks to the end'));
  console.log(row('wc -l (reads it whole)', `${wc.wallMs.toFixed(0)} ms`, `${(written / 1024 ** 2).toFixed(0)} MB, ${seq.toLocaleString('en-US')} lines`));
  console.log(row('open cell + episode, first events', `${result.firstEventsMs.toFixed(0)} ms`, `${result.events} events shown, the last one first read; peak RSS ${result.peakRssMb.toFixed(0)} MB`));
} finally {
  rmSync(home, { recursive: true, force: true });
}
