// Loads the program's bundles (dist/cli.cjs and those it requires) with V8
// code caches, for start-up.
//
// Node 20 compiles every script from source on every run (the compile cache
// of Node 22, module.enableCompileCache, does not exist here). The bundles are
// CommonJS, so we compile them ourselves with vm.Script and hand V8 the code
// it cached on an earlier run: functions that ran then are not parsed or
// compiled again. Measured 2026-11-23 with the cache against without
// (NODE_DISABLE_COMPILE_CACHE=1), medians of 25 paired whole-process runs:
// `email campaigns --help` 65 vs 75 ms (0.87×), `email api …` (one loopback
// request) 80 vs 96 ms (0.83×).
//
// A cache is only ever a shortcut, so every doubt means "compile from source":
// - It is named by V8 version and CPU architecture, and V8 itself refuses one
//   made by another V8, or with other V8 flags, or for a source of another
//   length (script.cachedDataRejected).
// - V8 does not compare the source's content, so the cache's header records
//   the size, modification time and change time of the bundle it was made
//   from (Python's .pyc files record the first two). npm dates every file it
//   installs 1985-10-26, and a new release's bundle can have the old one's
//   length: the change time, which no tool sets, is what differs then.
//   The file's name carries a hash of the bundle's path, so that two
//   installations do not take turns overwriting one cache.
// - Two places are tried: next to the bundle, where the build writes one (a
//   checkout), then the user's cache directory, which the program fills when
//   it ran without a usable cache (an installed package: its files carry the
//   packer's time, not the build's). That directory is used only when it is a
//   real directory of the user's that nobody else can write to (a planted
//   cache would be code run as the user); it is created 0700, files 0600.
// - NODE_DISABLE_COMPILE_CACHE=1 (the switch of Node's own compile cache)
//   turns it off.
// Nothing here may fail a command: a cache that cannot be read or written is
// silently not used.
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';

const MAGIC = 'email-compile-cache 2';

export type CacheSource = 'beside' | 'user' | undefined;

export interface LoadOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** The user's cache directory; null for none (default: userCacheDir(env)). */
  userDir?: string | null;
}

/** The cache file's name: the bundle's, a hash of its path, this V8 and architecture. */
export function cacheFileName(file: string): string {
  return `${basename(file)}.${pathHash(file)}.${process.versions.v8}-${process.arch}.cache`;
}

/** FNV-1a, 32 bits, as 8 hex digits: names apart the caches of bundles at different paths (node:crypto would cost a run 1 ms to load). */
function pathHash(path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Where an installed program keeps its code cache: the platform's per-user cache directory. */
export function userCacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const home = env.HOME || safeHomedir();
  if (process.platform === 'win32') {
    const base = env.LOCALAPPDATA || (home && join(home, 'AppData', 'Local'));
    return base ? join(base, 'email-cli', 'Cache') : undefined;
  }
  if (process.platform === 'darwin') return home ? join(home, 'Library', 'Caches', 'email-cli') : undefined;
  const base = env.XDG_CACHE_HOME || (home && join(home, '.cache'));
  return base ? join(base, 'email-cli') : undefined;
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

function cacheDisabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.NODE_DISABLE_COMPILE_CACHE;
  return v !== undefined && v !== '' && v !== '0';
}

/** A directory only the user can write to (POSIX): not a link, owned by them, no group or other write bit. */
function isPrivateDir(dir: string): boolean {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch {
    return false;
  }
  if (!st.isDirectory()) return false;
  if (process.platform === 'win32') return true;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

function header(source: Stats): string {
  return `${MAGIC} ${source.size} ${source.mtimeMs} ${source.ctimeMs}\n`;
}

/** The V8 data of a cache file made from this very source, or undefined. */
function readCache(path: string, source: Stats): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return undefined;
  }
  const expected = header(source);
  if (data.length <= expected.length || data.toString('latin1', 0, expected.length) !== expected) return undefined;
  return data.subarray(expected.length);
}

/**
 * Loads the program's bundles: dist/cli.cjs, and the bundles it requires by a
 * relative path (dist/vendor/undici.cjs, dist/sandbox.cjs…), each compiled
 * and run as Node's own loader would (the same wrapper, `require` relative to
 * the file, once per file), with the first cache made from that very file
 * that V8 accepts.
 */
export class BundleLoader {
  readonly loaded = new Map<string, LoadedBundle>();
  /**
   * Runs each compile. launch() sets the program's withDefaultV8Flags once it
   * is loaded (src/core/v8-flags.ts): V8 takes a cache only under the flags
   * it was made under, and a bundle may be loaded after a read changed some.
   */
  around: <T>(compile: () => T) => T = (compile) => compile();
  /** Whether caches are read at all (not with NODE_DISABLE_COMPILE_CACHE). */
  private readonly enabled: boolean;
  /** The user's cache directory, when caches are enabled and there is one. */
  readonly userDir: string | undefined;

  constructor(options: LoadOptions = {}) {
    const env = options.env ?? process.env;
    this.enabled = !cacheDisabled(env);
    const userDir = options.userDir === undefined ? userCacheDir(env) : options.userDir;
    this.userDir = (this.enabled && userDir) || undefined;
  }

  load<T>(file: string): T {
    const known = this.loaded.get(file);
    if (known) return known.exports as T;
    const stats = statSync(file);
    const source = readFileSync(file, 'utf8');
    let script: Script | undefined;
    let cache: CacheSource;
    for (const [where, dir] of this.cacheDirs(file)) {
      const cachedData = readCache(join(dir, cacheFileName(file)), stats);
      if (!cachedData) continue;
      script = this.around(() => compile(file, source, cachedData));
      if (!script.cachedDataRejected) {
        cache = where;
        break;
      }
    }
    // After a rejection V8 has compiled the script from source: that one runs.
    script ??= this.around(() => compile(file, source, undefined));
    const module = { exports: {} as unknown };
    const bundle: LoadedBundle = { file, script, cache, exports: undefined };
    this.loaded.set(file, bundle);
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
    try {
      wrapper.call(module.exports, module.exports, this.requireFrom(file), module, file, dirname(file));
    } catch (err) {
      this.loaded.delete(file);
      throw err;
    }
    bundle.exports = module.exports;
    return module.exports as T;
  }

  /** Where a cache of `file` may be, in order; the user's directory is checked only if the one beside the bundle did not serve. */
  private *cacheDirs(file: string): Generator<[CacheSource, string]> {
    if (!this.enabled) return;
    yield ['beside', dirname(file)];
    if (this.userDir && isPrivateDir(this.userDir)) yield ['user', this.userDir];
  }

  /** Node's require for anything but a sibling bundle (`./vendor/undici.cjs`), which this loader loads. */
  private requireFrom(file: string): NodeJS.Require {
    const nodeRequire = createRequire(file);
    const load = (id: string): unknown => (/^\.\.?\/.*\.cjs$/.test(id) ? this.load(resolve(dirname(file), id)) : nodeRequire(id));
    return Object.assign(load, nodeRequire) as NodeJS.Require;
  }
}

export interface LoadedBundle {
  file: string;
  script: Script;
  /** Where the cache V8 accepted came from; undefined when the bundle was compiled from source. */
  cache: CacheSource;
  exports: unknown;
}

function compile(file: string, source: string, cachedData: Buffer | undefined): Script {
  // Node's CommonJS wrapper, on a line of its own so that the bundle's lines keep their numbers in stack traces.
  return new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename: file, lineOffset: -1, cachedData });
}

/**
 * Writes the code V8 has compiled for `script` so far (so the functions that
 * ran are in it) as `dir`'s cache for `file`: a temporary file renamed into
 * place, so a concurrent run reads a whole cache or none. Private (0600)
 * unless told: the build's cache beside the bundle is as public as the bundle.
 */
export function writeCodeCache(script: Script, file: string, dir: string, mode = 0o600): void {
  const target = join(dir, cacheFileName(file));
  const temporary = `${target}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeSync(fd, header(statSync(file)));
    writeSync(fd, script.createCachedData());
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, target);
  } catch (err) {
    unlinkSync(temporary);
    throw err;
  }
}

/** Creates the user's cache directory (0700) if needed; whether it may hold a cache. */
function prepareUserDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return false;
  }
  return isPrivateDir(dir);
}

interface ProgramExports {
  main(): Promise<void>;
  /** Puts back the V8 flags the run changed (src/core/v8-flags.ts): a cache made under them would be refused next time. */
  restoreV8Flags(): void;
  withDefaultV8Flags<T>(compile: () => T): T;
}

/**
 * bin/email's entry: loads dist/cli.cjs and runs main(). The bundles that ran
 * without a usable cache get one in the user's cache directory as the
 * process exits, for the next run.
 */
export function launch(file: string): Promise<void> {
  const loader = new BundleLoader();
  const program = loader.load<ProgramExports>(file);
  loader.around = program.withDefaultV8Flags;
  const { userDir } = loader;
  if (userDir) {
    process.once('exit', () => {
      try {
        const uncached = [...loader.loaded.values()].filter((bundle) => bundle.cache === undefined);
        if (!uncached.length || !prepareUserDir(userDir)) return;
        program.restoreV8Flags();
        for (const bundle of uncached) writeCodeCache(bundle.script, bundle.file, userDir);
      } catch {
        // A cache is a shortcut: the next run compiles from source again.
      }
    });
  }
  return program.main();
}
