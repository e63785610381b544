import { dirname } from 'node:path';
import type { FormatName } from '../shared/model';
import { bigymAgent } from './bigym-agent/adapter';
import { codingAgent } from './coding-agent/adapter';
import { evopolicygym } from './evopolicygym/adapter';
import { harborJob } from './harbor-job/adapter';
import { inspect } from './inspect/adapter';
import { nemoGym } from './nemo-gym/adapter';
import type { FormatAdapter } from './types';

export const ADAPTERS: Record<FormatName, FormatAdapter> = {
  'coding-agent': codingAgent,
  'bigym-agent': bigymAgent,
  evopolicygym,
  'harbor-job': harborJob,
  'nemo-gym': nemoGym,
  inspect,
};

/** The folder a cell's relative paths start from: the cell's own, or for a cell that is a file, the file's. */
export function cellFolder(path: string, format: FormatName): string {
  return ADAPTERS[format].capabilities.fileCell ? dirname(path) : path;
}
