import { realpath, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
};

export function mimeOf(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** What a run directory's media may be served as: images, video, and text only as plain text. */
const MEDIA: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.json': 'text/plain; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.py': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  // A program snapshot's configuration (programs/<submission>/ of a record that keeps them), as plain text; scripts of any kind never.
  ...Object.fromEntries(['.toml', '.yaml', '.yml', '.cfg', '.ini', '.csv'].map((ext) => [ext, 'text/plain; charset=utf-8'])),
};

/** The type a media file is served as, or null: anything else (HTML, scripts, SVG) is never served from a run directory. */
export function mediaType(file: string): string | null {
  return MEDIA[extname(file).toLowerCase()] ?? null;
}

/**
 * Headers of a media response: no sniffing, no script, no plugins, no framing, shown in place. Opened on
 * its own, a video's page is sandboxed in the app's origin (allow-same-origin, never allow-scripts): in an
 * opaque origin it could not load its own video ("blocked by CORS policy") and played nothing.
 */
export function mediaHeaders(file: string, type: string): Record<string, string> {
  return {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox allow-same-origin; default-src 'none'; img-src 'self'; media-src 'self'",
    'content-disposition': `inline; filename="${(file.split(/[\\/]/).pop() ?? 'file').replace(/[^\w.-]/g, '_')}"`,
    'cache-control': 'max-age=3600',
  };
}

/** The file under `dir` that a URL path names, or null when it escapes `dir` or is not a file. */
export async function resolveStatic(dir: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded === '/' || decoded === '' ? '/index.html' : decoded).replace(/^[/\\]+/, '');
  const file = join(dir, relative);
  const inside = (path: string, folder: string) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
  if (!inside(file, dir)) return null;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  // A symbolic link inside that points outside (to /etc/passwd, to another cell) is refused.
  const [real, realDir] = await Promise.all([realpath(file).catch(() => null), realpath(dir).catch(() => null)]);
  return real && realDir && inside(real, realDir) ? file : null;
}

/** The Content-Security-Policy both windows run under. Styles inline: React and recharts set style attributes. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
