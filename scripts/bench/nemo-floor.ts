// Child of bench:nemo: the least a Node reader of a collection does for its summary, to measure the goal
// against. Each row's newline found, its last `"usage"` found and the tail from there parsed (the usage,
// and the members after the response: reward and unit); each input's newline and last unit members. No
// checks, no other row shapes, nothing kept but the sums. With --checked, the least a reader that keeps the
// contract adds (formats.md): each row's brackets and strings followed to its end (a malformed line is a
// problem), each unit kept once (a repeat is a problem), of rollouts and inputs. With --threads N, the
// same read by N threads at once, each file cut at newlines into N parts, each part's rows kept as typed
// arrays and sent back, and summed in file order (a unit repeated across parts is a repeat all the same).
// Prints its own time.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Bytes [from, to) of a file read as a reader thread reads them (`to` after a newline, or the file's end):
 * for each complete line, its unit, reward and tokens, or NaN where it is malformed. A thread's script of its
 * own, run as it is (no TypeScript in it): a thread loading this file through tsx took 200 ms to start.
 */
const READ_PART = `
const { openSync, readSync, closeSync } = require('node:fs');
const STEP = 1 << 20;
const USAGE = Buffer.from('"usage"');
const UNIT = Buffer.from('"_ng_task_index"');

function wholeObject(bytes, start, end) {
  if (bytes[start] !== 0x7b) return false;
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      for (;;) {
        i = bytes.indexOf(0x22, i + 1);
        if (i < 0 || i >= end) return false;
        let k = i - 1;
        while (bytes[k] === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i === end - 1;
  }
  return false;
}

function readPart(file, from, to, kind, checked) {
  const fd = openSync(file, 'r');
  let buffer = Buffer.allocUnsafe(2 * STEP);
  let carry = 0;
  let position = from;
  let rows = 0;
  let values = new Float64Array(4 * 4096);
  const row = (unit, reward, input, output) => {
    if (rows * 4 === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values[4 * rows] = unit;
    values[4 * rows + 1] = reward;
    values[4 * rows + 2] = input;
    values[4 * rows + 3] = output;
    rows++;
  };
  const visit = (bytes, start, end) => {
    if (checked && !wholeObject(bytes, start, end)) return row(NaN, NaN, NaN, NaN);
    if (kind === 'inputs') {
      const unit = JSON.parse('{' + bytes.toString('latin1', bytes.lastIndexOf(UNIT, end), end));
      if (Number.isInteger(unit._ng_task_index)) row(unit._ng_task_index * 4096 + unit._ng_rollout_index, 0, 0, 0);
      return;
    }
    const tail = bytes.toString('latin1', bytes.lastIndexOf(USAGE, end) + USAGE.length + 1, end);
    // These rows' usage ends with its total_tokens, a number: the first } after it closes the usage.
    const usage = JSON.parse(tail.slice(0, tail.indexOf('}', tail.indexOf('"total_tokens"')) + 1));
    const top = JSON.parse('{' + tail.slice(tail.indexOf('"reward"')));
    row(top._ng_task_index * 4096 + top._ng_rollout_index, top.reward, usage.input_tokens, usage.output_tokens);
  };
  while (position < to) {
    if (buffer.length - carry < STEP) buffer = Buffer.concat([buffer.subarray(0, carry), Buffer.allocUnsafe(2 * STEP)]);
    const got = readSync(fd, buffer, carry, Math.min(STEP, to - position), position);
    if (got === 0) break;
    position += got;
    const length = carry + got;
    let start = 0;
    for (let end = buffer.indexOf(0x0a, start); end >= 0 && end < length; start = end + 1, end = buffer.indexOf(0x0a, start)) visit(buffer, start, end);
    buffer.copy(buffer, 0, start, length);
    carry = length - start;
  }
  closeSync(fd);
  return values.subarray(0, 4 * rows);
}
`;

const [rollouts, inputs] = process.argv.slice(2) as [string, string];
const checked = process.argv.includes('--checked');
const threads = Number(process.argv[process.argv.indexOf('--threads') + 1]) || 1;

/** Where each of `parts` parts of a file starts, then its end: about equal, each after a newline. */
function bounds(file: string, parts: number): number[] {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const look = Buffer.allocUnsafe(1 << 20);
  const starts = [0];
  for (let k = 1; k < parts; k++) {
    const from = Math.floor((size * k) / parts);
    const got = readSync(fd, look, 0, look.length, from);
    const newline = look.subarray(0, got).indexOf(0x0a);
    if (newline >= 0) starts.push(from + newline + 1);
  }
  closeSync(fd);
  return [...starts, size];
}

/** A part read on a thread of its own (started as the app starts one, with no loader). */
const onThread = (file: string, from: number, to: number, kind: string) =>
  new Promise<Float64Array>((resolve, reject) => {
    const code = `${READ_PART}\nconst { parentPort, workerData: w } = require('node:worker_threads');\nconst values = readPart(w.file, w.from, w.to, w.kind, w.checked);\nparentPort.postMessage(values, [values.buffer]);`;
    const worker = new Worker(code, { eval: true, execArgv: [], workerData: { file, from, to, kind, checked } });
    worker.once('message', (values: Float64Array) => (resolve(values), void worker.terminate()));
    worker.on('error', reject);
  });
const readHere = new Function('require', 'file', 'from', 'to', 'kind', 'checked', `${READ_PART}\nreturn readPart(file, from, to, kind, checked);`).bind(null, createRequire(import.meta.url)) as (file: string, from: number, to: number, kind: string, checked: boolean) => Float64Array;

/** A file's parts read at once, the first on this thread, in file order. */
async function readFile(file: string, kind: string): Promise<Float64Array[]> {
  const at = bounds(file, threads);
  const others = at.slice(1, -1).map((from, k) => onThread(file, from, at[k + 2] as number, kind));
  const first = readHere(file, 0, at[1] as number, kind, checked);
  return [first, ...(await Promise.all(others))];
}

const started = performance.now();
const [rolloutParts, inputParts] = [await readFile(rollouts, 'rollouts'), await readFile(inputs, 'inputs')];
let malformed = 0;
let repeats = 0;
const done = new Set<number>();
const plannedUnits = new Set<number>();
let count = 0;
let reward = 0;
let input = 0;
let output = 0;
for (const values of rolloutParts) {
  for (let i = 0; i < values.length; i += 4) {
    const unit = values[i] as number;
    if (Number.isNaN(unit)) {
      malformed++;
      continue;
    }
    if (checked) {
      if (done.has(unit)) {
        repeats++;
        continue;
      }
      done.add(unit);
    }
    count++;
    reward += values[i + 1] as number;
    input += values[i + 2] as number;
    output += values[i + 3] as number;
  }
}
let planned = 0;
for (const values of inputParts) {
  for (let i = 0; i < values.length; i += 4) {
    const unit = values[i] as number;
    if (Number.isNaN(unit)) malformed++;
    else {
      if (checked) plannedUnits.add(unit);
      planned++;
    }
  }
}
const missing = checked ? [...plannedUnits].filter((unit) => !done.has(unit)).length : null;
console.log(JSON.stringify({ ms: performance.now() - started, count, meanReward: reward / count, input, output, planned, malformed, repeats, missing }));
