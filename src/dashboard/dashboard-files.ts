import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DashboardFile {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

const PUBLIC = join(__dirname, 'public');

/** The page's own files (copied beside the compiled code by the build) and uPlot's, from its package. */
function sources(): Record<string, string> {
  const own = readdirSync(PUBLIC).filter((name) => name.slice(name.lastIndexOf('.') + 1) in TYPES);
  return {
    ...Object.fromEntries(own.map((name) => [name, join(PUBLIC, name)])),
    'vendor/uplot.js': require.resolve('uplot/dist/uPlot.iife.min.js'),
    'vendor/uplot.css': require.resolve('uplot/dist/uPlot.min.css'),
  };
}

/** Every file the dashboard serves, read once; a name not listed is not served. */
export class DashboardFiles {
  private readonly cache = new Map<string, DashboardFile>();
  private paths: Record<string, string> | null = null;

  get(name: string): DashboardFile | null {
    this.paths ??= sources();
    const path = Object.hasOwn(this.paths, name) ? this.paths[name] : undefined;
    if (path === undefined) return null;
    let file = this.cache.get(name);
    if (!file) {
      file = { type: TYPES[path.slice(path.lastIndexOf('.') + 1)], body: readFileSync(path) };
      this.cache.set(name, file);
    }
    return file;
  }
}
