export { ADAPTERS, cellFolder } from './adapters';
export { detectFormat, fileCellOf, fileCellsIn, whatIsACell } from './detect';
export { asText, entryProblems, localFs, MAX_ENTRIES, MORE_ENTRIES, syncLocalFs, type CellFs, type Entry, type FileInfo } from './common/fs';
export { JsonReader } from './common/json';
export type { CellRead, FormatAdapter, ReadContext, ScorerPicks } from './types';
