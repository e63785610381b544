// An Inspect `.eval` log written as Inspect writes one (a zip of JSON members, deflated): what the demo
// writes live, and what tests make logs of.
import { crc32, deflateRawSync } from 'node:zlib';

/** Writes a zip member by member through `out`, deflated; its end records (zip64 where its count needs them) at `finish`. */
export class ZipWriter {
  private readonly central: Buffer[] = [];
  private offset = 0;
  private count = 0;

  constructor(private readonly out: (chunk: Buffer) => void) {}

  add(name: string, data: Buffer): void {
    const packed = deflateRawSync(data, { level: 5 });
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    // The fields a local header and a central directory entry share, at their own offsets in each.
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(0x0800, at);
      header.writeUInt16LE(8, at + 2);
      header.writeUInt32LE(crc, at + 8);
      header.writeUInt32LE(packed.length, at + 12);
      header.writeUInt32LE(data.length, at + 16);
      header.writeUInt16LE(fileName.length, at + 20);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    common(local, 6);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(45, 4);
    entry.writeUInt16LE(20, 6);
    common(entry, 8);
    entry.writeUInt32LE(this.offset, 42);
    this.out(Buffer.concat([local, fileName, packed]));
    this.central.push(entry, fileName);
    this.offset += local.length + fileName.length + packed.length;
    this.count++;
  }

  finish(): void {
    const directory = Buffer.concat(this.central);
    const wide = this.count >= 0xffff;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(wide ? 0xffff : this.count, 8);
    end.writeUInt16LE(wide ? 0xffff : this.count, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(wide ? 0xffffffff : this.offset, 16);
    if (!wide) return this.out(Buffer.concat([directory, end]));
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE(45, 12);
    end64.writeUInt16LE(45, 14);
    end64.writeBigUInt64LE(BigInt(this.count), 24);
    end64.writeBigUInt64LE(BigInt(this.count), 32);
    end64.writeBigUInt64LE(BigInt(directory.length), 40);
    end64.writeBigUInt64LE(BigInt(this.offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(this.offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    this.out(Buffer.concat([directory, end64, locator, end]));
  }
}

/** A zip of these members, in order. */
export function zipOf(members: { name: string; json: unknown }[]): Buffer {
  const chunks: Buffer[] = [];
  const writer = new ZipWriter((chunk) => chunks.push(chunk));
  for (const { name, json } of members) writer.add(name, Buffer.from(typeof json === 'string' ? json : JSON.stringify(json)));
  writer.finish();
  return Buffer.concat(chunks);
}

export interface LogSample {
  id: string | number;
  epoch: number;
  /** Each scorer's value. */
  scores: Record<string, unknown>;
  error?: string;
  limit?: string;
  usage?: Record<string, { input_tokens: number; output_tokens: number; input_tokens_cache_read?: number; reasoning_tokens?: number }>;
  messages?: unknown[];
  events?: unknown[];
  /** Log v3: the messages its model events refer to by `input_refs`. */
  messagePool?: unknown[];
  /** When it completed (ISO), as newer logs' summaries say. */
  completed?: string;
}

export interface LogSpec {
  task: string;
  model: string;
  sampleIds: (string | number)[];
  epochs: number;
  scorer: string;
  samples: LogSample[];
  /** The end: written with header.json and the final summaries; absent while it runs. */
  status?: 'success' | 'error' | 'cancelled';
  generate?: Record<string, unknown>;
  taskArgs?: Record<string, unknown>;
  /** What the header's results say of the scorer's accuracy (default: what the samples give). */
  accuracy?: number;
}

const summary = (s: LogSample) => ({
  id: s.id,
  epoch: s.epoch,
  input: `sample ${s.id}`,
  target: 'C',
  scores: Object.fromEntries(Object.entries(s.scores).map(([k, value]) => [k, { value }])),
  model_usage: s.usage ?? {},
  total_time: 1.5,
  ...(s.completed ? { completed: s.completed } : {}),
  ...(s.error ? { error: { message: s.error, traceback: '' } } : {}),
  ...(s.limit ? { limit: { type: s.limit, limit: 10 } } : {}),
});

/** The members of a log as Inspect writes them: the start record, each sample, its summaries in one batch, and at the end its header. */
export function evalMembers(spec: LogSpec): { name: string; json: unknown }[] {
  const evalSpec = {
    task: spec.task,
    task_id: `${spec.task}-id`,
    run_id: 'run',
    created: '2026-12-01T10:00:00+00:00',
    model: spec.model,
    task_args: spec.taskArgs ?? {},
    model_generate_config: spec.generate ?? {},
    dataset: { samples: spec.sampleIds.length, sample_ids: spec.sampleIds },
    config: { epochs: spec.epochs },
    scorers: [{ name: spec.scorer, options: {}, metrics: [{ name: 'inspect_ai/accuracy', options: {} }] }],
  };
  const plan = { name: 'plan', steps: [{ solver: 'generate', params: {} }] };
  const members: { name: string; json: unknown }[] = [{ name: '_journal/start.json', json: { version: 2, eval: evalSpec, plan } }];
  for (const s of spec.samples) members.push({ name: `samples/${s.id}_epoch_${s.epoch}.json`, json: { ...summary(s), messages: s.messages ?? [], events: s.events ?? [], ...(s.messagePool ? { message_pool: s.messagePool } : {}) } });
  if (spec.samples.length) members.push({ name: '_journal/summaries/1.json', json: spec.samples.map(summary) });
  if (spec.status) {
    // As Inspect reduces: each sample's epochs averaged, then the mean over samples.
    const bySample = new Map<string, number[]>();
    for (const s of spec.samples) {
      const v = s.error ? undefined : s.scores[spec.scorer];
      const value = v === 'C' || v === true ? 1 : v === 'P' ? 0.5 : v === 'I' || v === 'N' || v === false ? 0 : typeof v === 'number' ? v : null;
      if (value !== null) bySample.set(String(s.id), [...(bySample.get(String(s.id)) ?? []), value]);
    }
    const means = [...bySample.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
    const accuracy = spec.accuracy ?? (means.length ? means.reduce((a, b) => a + b, 0) / means.length : 0);
    const usage: Record<string, Record<string, number>> = {};
    for (const s of spec.samples)
      for (const [model, counts] of Object.entries(s.usage ?? {})) for (const [k, n] of Object.entries(counts)) (usage[model] ??= {})[k] = (usage[model]?.[k] ?? 0) + n;
    members.push({ name: 'summaries.json', json: spec.samples.map(summary) });
    members.push({
      name: 'header.json',
      json: {
        version: 2,
        status: spec.status,
        eval: evalSpec,
        plan,
        results: { total_samples: spec.sampleIds.length * spec.epochs, completed_samples: spec.samples.length, scores: [{ name: spec.scorer, scorer: spec.scorer, metrics: { accuracy: { name: 'accuracy', value: accuracy } } }] },
        stats: { started_at: '2026-12-01T10:00:00+00:00', completed_at: '2026-12-01T10:05:00+00:00', model_usage: usage },
        ...(spec.status === 'error' ? { error: { message: 'RuntimeError: the sandbox went away', traceback: 'Traceback ...' } } : {}),
      },
    });
  }
  return members;
}
