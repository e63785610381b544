// For tests and benchmarks: ffprobe from the system, else from the npm package the suite installs.
import { createRequire } from 'node:module';
import { findTool } from '../../scripts/system-tools.mjs';

export function findFfprobe(): string {
  return findTool('ffprobe') ?? (createRequire(import.meta.url)('@ffprobe-installer/ffprobe') as { path: string }).path;
}
