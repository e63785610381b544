// Child of bench:nemo: the least a Node reader of a collection does for its summary, to measure the goal
// against. Each row's newline found, its last `"usage"` found and the tail from there parsed (the usage,
// and the members after the response: reward and unit); each input's newline and last unit members. No
// checks, no other row shapes, nothing kept but the sums. With --checked, the least a reader that keeps the
// contract adds (formats.md): each row's brackets and strings followed to its end (a malformed line is a
// problem), each unit kept once (a repeat is a problem), of rollouts and inputs. Prints its own time.
import { openSync, readSync } from 'node:fs';

const [rollouts, inputs] = process.argv.slice(2) as [string, string];
const checked = process.argv.includes('--checked');
const STEP = 1 << 20;
const USAGE = Buffer.from('"usage"');
const UNIT = Buffer.from('"_ng_task_index"');

/** Each complete line of a file, as the buffer and the line's bounds. */
function eachLine(file: string, visit: (bytes: Buffer, start: number, end: number) => void) {
  const fd = openSync(file, 'r');
  let buffer = Buffer.allocUnsafe(2 * STEP);
  let carry = 0;
  let position = 0;
  for (;;) {
    if (buffer.length - carry < STEP) buffer = Buffer.concat([buffer.subarray(0, carry), Buffer.allocUnsafe(2 * STEP)]);
    const got = readSync(fd, buffer, carry, STEP, position);
    if (got === 0) return;
    position += got;
    const length = carry + got;
    let start = 0;
    for (let end = buffer.indexOf(0x0a, start); end >= 0 && end < length; start = end + 1, end = buffer.indexOf(0x0a, start)) visit(buffer, start, end);
    buffer.copy(buffer, 0, start, length);
    carry = length - start;
  }
}

/** Whether bytes[start, end) is one JSON object by its brackets, strings skipped (their quotes found natively). */
function wholeObject(bytes: Buffer, start: number, end: number): boolean {
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

/** Each unit once: task and repeat, as a number. */
const unitOf = (top: { _ng_task_index: number; _ng_rollout_index: number }) => top._ng_task_index * 4096 + top._ng_rollout_index;

const started = performance.now();
let malformed = 0;
let repeats = 0;
const done = new Set<number>();
const plannedUnits = new Set<number>();
let count = 0;
let reward = 0;
let input = 0;
let output = 0;
eachLine(rollouts, (bytes, start, end) => {
  if (checked && !wholeObject(bytes, start, end)) {
    malformed++;
    return;
  }
  const tail = bytes.toString('latin1', bytes.lastIndexOf(USAGE, end) + USAGE.length + 1, end);
  // These rows' usage ends with its total_tokens, a number: the first `}` after it closes the usage.
  const usage = JSON.parse(tail.slice(0, tail.indexOf('}', tail.indexOf('"total_tokens"')) + 1)) as { input_tokens: number; output_tokens: number };
  const top = JSON.parse(`{${tail.slice(tail.indexOf('"reward"'))}`) as { reward: number; _ng_task_index: number; _ng_rollout_index: number };
  if (checked) {
    const unit = unitOf(top);
    if (done.has(unit)) {
      repeats++;
      return;
    }
    done.add(unit);
  }
  count++;
  reward += top.reward;
  input += usage.input_tokens;
  output += usage.output_tokens;
});
let planned = 0;
eachLine(inputs, (bytes, start, end) => {
  if (checked && !wholeObject(bytes, start, end)) {
    malformed++;
    return;
  }
  const unit = JSON.parse(`{${bytes.toString('latin1', bytes.lastIndexOf(UNIT, end), end)}`) as { _ng_task_index: number; _ng_rollout_index: number };
  if (!Number.isInteger(unit._ng_task_index)) return;
  if (checked) plannedUnits.add(unitOf(unit));
  planned++;
});
const missing = checked ? [...plannedUnits].filter((unit) => !done.has(unit)).length : null;
console.log(JSON.stringify({ ms: performance.now() - started, count, meanReward: reward / count, input, output, planned, malformed, repeats, missing }));
