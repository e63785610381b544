// An Inspect `.eval` log is a zip: its central directory lists the members (where each is, its size and
// CRC), read from the end of the file; a member is read alone, by its offset. A file caught while Inspect
// copies a new zip over it has no good directory at its end: that is a `ZipBroken`, and the reader keeps
// its last good reading.
import { inflateRawSync } from 'node:zlib';
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

/** The members of the zip at `path`, from its central directory. */
export async function zipMembers(fs: CellFs, path: string): Promise<ZipMember[]> {
  const info = await fs.stat(path);
  if (!info || info.kind !== 'file') throw new ZipBroken('no such file');
  const place = await directoryPlace(fs, path, info.size);
  const directory = await bytesAt(fs, path, place.offset, place.length);
  const members: ZipMember[] = [];
  for (let at = 0; at + 46 <= directory.length && members.length < place.entries; ) {
    if (directory.readUInt32LE(at) !== CENTRAL) throw new ZipBroken(`no central directory entry at ${place.offset + at}`);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
    const extra = zip64Values(directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    let size = directory.readUInt32LE(at + 24);
    let compressedSize = directory.readUInt32LE(at + 20);
    let offset = directory.readUInt32LE(at + 42);
    if (size === 0xffffffff) size = Number(extra.shift() ?? 0n);
    if (compressedSize === 0xffffffff) compressedSize = Number(extra.shift() ?? 0n);
    if (offset === 0xffffffff) offset = Number(extra.shift() ?? 0n);
    members.push({ name, method: directory.readUInt16LE(at + 10), crc: directory.readUInt32LE(at + 16), compressedSize, size, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  if (members.length !== place.entries) throw new ZipBroken(`the central directory lists ${members.length} of ${place.entries} members`);
  return members;
}

/** A member's bytes, at most `maxBytes` of them (more is a ZipBroken: the caller says the member is too large). */
export async function readMember(fs: CellFs, path: string, member: ZipMember, maxBytes: number): Promise<Buffer> {
  if (member.size > maxBytes) throw new ZipBroken(`${member.name} holds ${member.size} bytes, over the ${maxBytes} read`);
  const header = await bytesAt(fs, path, member.offset, 30);
  if (header.readUInt32LE(0) !== LOCAL) throw new ZipBroken(`no local header for ${member.name}`);
  const start = member.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await bytesAt(fs, path, start, member.compressedSize);
  if (member.method === 0) return data;
  if (member.method !== 8) throw new ZipBroken(`${member.name} is compressed with method ${member.method}, which is not read`);
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, member.size) });
  } catch (error) {
    throw new ZipBroken(`${member.name} does not inflate: ${(error as Error).message}`);
  }
}
