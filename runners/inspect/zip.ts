// An Inspect `.eval` log is a zip: its central directory lists the members (where each is, its size and
// CRC), read from the end of the file; a member is read alone, by its offset. A file caught while Inspect
// copies a new zip over it has no good directory at its end: that is a `ZipBroken`, and the reader keeps
// its last good reading.
import { Readable, pipeline } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import type { CellFs } from '../common/fs';

export interface ZipMember {
  name: string;
  /** 0 stored, 8 deflated; others are not read. */
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts. */
  offset: number;
}

/** The file is no whole zip now (half-copied, truncated), or holds a member that cannot be read. */
export class ZipBroken extends Error {
  override name = 'ZipBroken';
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record, and the longest comment a zip may carry after it. */
const TAIL = 22 + 0xffff;
/** A central directory larger than this is no Inspect log's (200,000 samples take about 20 MB). */
const MAX_DIRECTORY = 256 << 20;

async function bytesAt(fs: CellFs, path: string, position: number, length: number): Promise<Buffer> {
  const read = await fs.readBytes(path, position, length);
  if (!read || read.bytes.length < length) throw new ZipBroken(`${length} bytes at ${position} could not be read`);
  return read.bytes.subarray(0, length);
}

/** The central directory's place: from the end record, or the zip64 one when the zip needs it. */
async function directoryPlace(fs: CellFs, path: string, size: number): Promise<{ offset: number; length: number; entries: number }> {
  const start = Math.max(0, size - TAIL);
  const tail = await bytesAt(fs, path, start, size - start);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipBroken('no end of central directory');
  let entries = tail.readUInt16LE(at + 10);
  let length = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  if (entries === 0xffff || length === 0xffffffff || offset === 0xffffffff) {
    const locator = start + at - 20;
    if (locator < 0) throw new ZipBroken('no zip64 end locator');
    const found = await bytesAt(fs, path, locator, 20);
    if (found.readUInt32LE(0) !== EOCD64_LOCATOR) throw new ZipBroken('no zip64 end locator');
    const record = await bytesAt(fs, path, Number(found.readBigUInt64LE(8)), 56);
    if (record.readUInt32LE(0) !== EOCD64) throw new ZipBroken('no zip64 end record');
    entries = Number(record.readBigUInt64LE(32));
    length = Number(record.readBigUInt64LE(40));
    offset = Number(record.readBigUInt64LE(48));
  }
  if (length > MAX_DIRECTORY || offset + length > size) throw new ZipBroken(`a central directory of ${length} bytes at ${offset} in ${size}`);
  return { offset, length, entries };
}

/** A zip64 extra field's values, in the order the entry's saturated fields need them. */
function zip64Values(extra: Buffer): bigint[] {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const size = extra.readUInt16LE(i + 2);
    if (id === 1) {
      const values: bigint[] = [];
      for (let j = i + 4; j + 8 <= i + 4 + size && j + 8 <= extra.length; j += 8) values.push(extra.readBigUInt64LE(j));
      return values;
    }
    i += 4 + size;
  }
  return [];
}

/** The name of a zip's first member, from its local header at the file's start; null when it starts with none. */
export async function firstMember(fs: CellFs, path: string): Promise<string | null> {
  const head = await fs.readBytes(path, 0, 30 + 64);
  if (!head || head.bytes.length < 30 || head.bytes.readUInt32LE(0) !== LOCAL) return null;
  return head.bytes.toString('utf8', 30, Math.min(head.bytes.length, 30 + head.bytes.readUInt16LE(26)));
}

/**
 * A zip's central directory, kept as its bytes and where each entry starts: a member is made when it is
 * asked for, never 200,000 of them at once.
 */
export class ZipDirectory {
  constructor(
    private readonly bytes: Buffer,
    private readonly starts: Uint32Array,
  ) {}

  /** The member of that name; of two, the later listed (as a map of the members by name has it). */
  get(name: string): ZipMember | undefined {
    const wanted = Buffer.from(name);
    for (let i = this.starts.length - 1; i >= 0; i--) {
      const at = this.starts[i] as number;
      if (this.bytes.readUInt16LE(at + 28) === wanted.length && this.bytes.compare(wanted, 0, wanted.length, at + 46, at + 46 + wanted.length) === 0) return this.member(i);
    }
    return undefined;
  }

  *[Symbol.iterator](): Generator<ZipMember> {
    for (let i = 0; i < this.starts.length; i++) yield this.member(i);
  }

  private member(i: number): ZipMember {
    const d = this.bytes;
    const at = this.starts[i] as number;
    const nameLength = d.readUInt16LE(at + 28);
    const extra = zip64Values(d.subarray(at + 46 + nameLength, at + 46 + nameLength + d.readUInt16LE(at + 30)));
    let size = d.readUInt32LE(at + 24);
    let compressedSize = d.readUInt32LE(at + 20);
    let offset = d.readUInt32LE(at + 42);
    if (size === 0xffffffff) size = Number(extra.shift() ?? 0n);
    if (compressedSize === 0xffffffff) compressedSize = Number(extra.shift() ?? 0n);
    if (offset === 0xffffffff) offset = Number(extra.shift() ?? 0n);
    return { name: d.toString('utf8', at + 46, at + 46 + nameLength), method: d.readUInt16LE(at + 10), crc: d.readUInt32LE(at + 16), compressedSize, size, offset };
  }
}

/** The central directory of the zip at `path`, each of its entries checked to be one. */
export async function zipDirectory(fs: CellFs, path: string): Promise<ZipDirectory> {
  const info = await fs.stat(path);
  if (!info || info.kind !== 'file') throw new ZipBroken('no such file');
  const place = await directoryPlace(fs, path, info.size);
  const directory = await bytesAt(fs, path, place.offset, place.length);
  const starts = new Uint32Array(Math.min(place.entries, Math.floor(directory.length / 46)));
  let count = 0;
  for (let at = 0; at + 46 <= directory.length && count < starts.length; count++) {
    if (directory.readUInt32LE(at) !== CENTRAL) throw new ZipBroken(`no central directory entry at ${place.offset + at}`);
    starts[count] = at;
    at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    // Its name and fields inside the directory: a member is read from them later, never past its end.
    if (at > directory.length) throw new ZipBroken(`the central directory entry at ${place.offset + (starts[count] as number)} runs past its end`);
  }
  if (count !== place.entries) throw new ZipBroken(`the central directory lists ${count} of ${place.entries} members`);
  return new ZipDirectory(directory, starts);
}

/** Where a member's data starts: past its local header, whose name and extra field may differ from the directory's. */
async function dataStart(fs: CellFs, path: string, member: ZipMember): Promise<number> {
  const header = await bytesAt(fs, path, member.offset, 30);
  if (header.readUInt32LE(0) !== LOCAL) throw new ZipBroken(`no local header for ${member.name}`);
  if (member.method !== 0 && member.method !== 8) throw new ZipBroken(`${member.name} is compressed with method ${member.method}, which is not read`);
  return member.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/** A member's bytes, at most `maxBytes` of them (more is a ZipBroken: the caller says the member is too large). */
export async function readMember(fs: CellFs, path: string, member: ZipMember, maxBytes: number): Promise<Buffer> {
  if (member.size > maxBytes) throw new ZipBroken(`${member.name} holds ${member.size} bytes, over the ${maxBytes} read`);
  const data = await bytesAt(fs, path, await dataStart(fs, path, member), member.compressedSize);
  if (member.method === 0) return data;
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, member.size) });
  } catch (error) {
    throw new ZipBroken(`${member.name} does not inflate: ${(error as Error).message}`);
  }
}

/**
 * A member's bytes in chunks of about `chunkBytes` as they inflate, read as they are needed: a member of
 * any size (summaries.json of 200,000 samples) is never held whole.
 */
export async function* memberChunks(fs: CellFs, path: string, member: ZipMember, chunkBytes = 1 << 20): AsyncGenerator<Buffer> {
  const start = await dataStart(fs, path, member);
  async function* stored(): AsyncGenerator<Buffer> {
    for (let at = 0; at < member.compressedSize; at += chunkBytes) yield await bytesAt(fs, path, start + at, Math.min(chunkBytes, member.compressedSize - at));
  }
  if (member.method === 0) return yield* stored();
  const inflate = createInflateRaw({ chunkSize: chunkBytes });
  // The pipeline ends the inflate with the reading's error, if one comes; its own callback has nothing to add.
  pipeline(Readable.from(stored()), inflate, () => undefined);
  let inflated = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > member.size) throw new ZipBroken(`${member.name} inflates past the ${member.size} bytes its directory entry says`);
      yield chunk;
    }
  } catch (error) {
    throw error instanceof ZipBroken ? error : new ZipBroken(`${member.name} does not inflate: ${(error as Error).message}`);
  } finally {
    inflate.destroy();
  }
}
