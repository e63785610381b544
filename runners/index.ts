import type { FormatName } from '../shared/model';
import { bigymAgent } from './bigym-agent/adapter';
import { codingAgent } from './coding-agent/adapter';
import { evopolicygym } from './evopolicygym/adapter';
import { harborJob } from './harbor-job/adapter';
import type { FormatAdapter } from './types';

export const ADAPTERS: Record<FormatName, FormatAdapter> = {
  'coding-agent': codingAgent,
  'bigym-agent': bigymAgent,
  evopolicygym,
  'harbor-job': harborJob,
};

export { detectFormat } from './detect';
export { entryProblems, localFs, MAX_ENTRIES, MORE_ENTRIES, syncLocalFs, type CellFs, type Entry, type FileInfo } from './common/fs';
export { JsonReader } from './common/json';
export type { CellRead, FormatAdapter, ReadContext } from './types';
