// npm run bench:inspect: an Inspect `.eval` log of 200,000 samples (BENCH_SAMPLES; made from the fixtures'
// samples, about 1 GB), finished: `cellwatch status --json` of it cold (its central directory, header and
// summaries; no sample read), its wall time and peak RSS, beside Python's zipfile reading the same members.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ZipWriter } from '../../runners/inspect/write';
import { measure, median, ROOT, row, type Measured } from './measure';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200_000);

/** The fixture's members by name, read with the app's own zip reading left out (Python's zipfile does it below too). */
function fixtureSamples(): unknown[] {
  const bytes = readFileSync(join(ROOT, 'runners/inspect/fixtures/log_streaming.eval'));
  const samples: unknown[] = [];
  for (let at = 0; at + 30 < bytes.length && bytes.readUInt32LE(at) === 0x04034b50; ) {
    const size = bytes.readUInt32LE(at + 18);
    const start = at + 30 + bytes.readUInt16LE(26 + at) + bytes.readUInt16LE(28 + at);
    const name = bytes.toString('utf8', at + 30, at + 30 + bytes.readUInt16LE(26 + at));
    if (name.startsWith('samples/')) samples.push(JSON.parse(inflateRawSync(bytes.subarray(start, start + size)).toString('utf8')));
    at = start + size;
  }
  return samples;
}

/** A zip written member by member to `path`, as the app's writer writes one (zip64 end records for its count). */
function writeZip(path: string, members: Iterable<{ name: string; data: Buffer }>): void {
  const fd = openSync(path, 'w');
  const writer = new ZipWriter((chunk) => writeSync(fd, chunk));
  for (const { name, data } of members) writer.add(name, data);
  writer.finish();
  closeSync(fd);
}

function* logMembers(samples: unknown[]): Generator<{ name: string; data: Buffer }> {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const ids = Array.from({ length: SAMPLES / 2 }, (_, i) => i + 1);
  const evalSpec = { task: 'popularity', task_id: 'bench', run_id: 'bench', created: '2026-12-01T10:00:00+00:00', model: 'openai/gpt-4o', dataset: { samples: ids.length, sample_ids: ids }, config: { epochs: 2 }, scorers: [{ name: 'match', options: {}, metrics: [] }] };
  const plan = { name: 'plan', steps: [{ solver: 'generate', params: {} }] };
  yield { name: '_journal/start.json', data: json({ version: 2, eval: evalSpec, plan }) };
  const summaries: unknown[] = [];
  let right = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const source = samples[i % samples.length] as Record<string, unknown>;
    const id = Math.floor(i / 2) + 1;
    const epoch = (i % 2) + 1;
    const value = (i * 7919) % 10 < 7 ? 'C' : 'I';
    if (value === 'C') right++;
    const sample = { ...source, id, epoch, scores: { match: { value } }, model_usage: { 'openai/gpt-4o': { input_tokens: 60, output_tokens: 3, total_tokens: 63 } } };
    summaries.push({ id, epoch, input: source.input, target: source.target, scores: sample.scores, model_usage: sample.model_usage, total_time: 0.4 });
    yield { name: `samples/${id}_epoch_${epoch}.json`, data: json(sample) };
  }
  yield { name: 'summaries.json', data: json(summaries) };
  yield {
    name: 'header.json',
    data: json({ version: 2, status: 'success', eval: evalSpec, plan, results: { total_samples: SAMPLES, completed_samples: SAMPLES, scores: [{ name: 'match', scorer: 'match', metrics: { accuracy: { name: 'accuracy', value: right / SAMPLES } } }] }, stats: { model_usage: { 'openai/gpt-4o': { input_tokens: 60 * SAMPLES, output_tokens: 3 * SAMPLES } } } }),
  };
}

const home = join(tmpdir(), `cellwatch-bench-inspect-${process.pid}`);
try {
  mkdirSync(home, { recursive: true });
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const log = join(home, 'logs', '2026-12-01T10-00-00+00-00_popularity_bench.eval');
  mkdirSync(join(home, 'logs'));
  writeZip(log, logMembers(fixtureSamples()));
  const env = { XDG_CONFIG_HOME: join(home, 'config') };
  const python = `import zipfile, json, sys\nz = zipfile.ZipFile(sys.argv[1])\nfor m in ('header.json', 'summaries.json'): json.loads(z.read(m))`;
  // Each measured three times, alternately, medians kept; every status run cold (a data folder of its own).
  const baselines: number[] = [];
  const runs: Measured[] = [];
  for (let i = 0; i < 3; i++) {
    baselines.push((await measure('python3', ['-c', python, log])).wallMs);
    runs.push(await measure(process.execPath, [join(ROOT, 'out/cli.mjs'), 'status', '--json', log], { rss: true, env: { ...env, XDG_DATA_HOME: join(home, `data${i}`) } }));
  }
  const baseline = median(baselines);
  const wall = median(runs.map((r) => r.wallMs));
  const rss = median(runs.map((r) => r.peakRssMb ?? 0));
  const cell = (JSON.parse((runs[0] as Measured).stdout) as { cells: { budget: { used: number }; success_rate: number }[] }).cells[0];
  console.log(`${SAMPLES.toLocaleString('en-US')} samples, ${(statSync(log).size / 2 ** 30).toFixed(2)} GiB; cellwatch counted ${cell?.budget.used.toLocaleString('en-US')}, rate ${cell?.success_rate.toFixed(4)}; medians of 3\n`);
  console.log(row('Python zipfile, the same members (baseline)', `${(baseline / 1000).toFixed(2)} s`));
  console.log(row('status --json, cold', `${(wall / 1000).toFixed(2)} s`, `${(wall / baseline).toFixed(2)}x the baseline (goal: at most 1x), peak RSS ${rss.toFixed(0)} MB (goal: under 300 MB; runs ${runs.map((r) => r.peakRssMb?.toFixed(0)).join(', ')})`));
} finally {
  rmSync(home, { recursive: true, force: true });
}
