// The ids shell completion offers (CLI.md "completion"): answers kept for a minute so TAB
// after TAB does not ask again, and the lists this profile used (the service cannot list them).
// Private to the user, never the key; a cache is only a shortcut, so every problem reads as
// "nothing cached".
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { readConfig } from './config.js';
import { readRegularFile, writePrivateFile } from './private-file.js';
import { chooseProfile } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface CompletedEntry {
  id: string;
  name?: string;
}

/** The profile is '' for a key from EMAIL_API_KEY. */
export interface CacheIdentity {
  profile: string;
  baseUrl: string;
}

export const ANSWER_TTL_MS = 60_000;
const MAX_LISTS = 200;
/** So that a read need not write each time it moves a list up. */
const RECENCY_STEP_MS = 60 * 60_000;
/** A menu, not the whole account. */
export const MAX_IDS = 1_000;
export const MAX_NAME_CHARS = 80;
/** Far over what this module writes: a larger file is not ours, and is not read. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A shell must never receive a word it could expand. */
export function isCompletableId(id: unknown): id is string {
  return typeof id === 'string' && UUID.test(id);
}

/** By the rules of settings.ts, without reading the key. */
export function cacheIdentity(env: Env, profileFlag?: string, baseUrlFlag?: string): CacheIdentity | undefined {
  try {
    let raw = baseUrlFlag || env.EMAIL_BASE_URL;
    let profile = '';
    if (!env.EMAIL_API_KEY || !raw) {
      const { data } = readConfig(env);
      const chosen = chooseProfile({ env, profileFlag }, data);
      if (!env.EMAIL_API_KEY) profile = chosen.name;
      raw ||= data.profiles[chosen.name]?.baseUrl;
    }
    if (!raw) return undefined;
    const url = new URL(raw);
    return { profile, baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
  } catch {
    return undefined;
  }
}

interface Stored {
  profile: string;
  baseUrl: string;
  answers: Record<string, { at: number; entries: CompletedEntry[] }>;
  lists: (CompletedEntry & { at: number })[];
}

export class IdCache {
  private constructor(
    readonly path: string,
    private data: Stored,
  ) {}

  /** Undefined where the user's cache directory is not private. */
  static async open(env: Env, identity: CacheIdentity): Promise<IdCache | undefined> {
    const dir = privateCacheDir(env);
    if (!dir) return undefined;
    const name = createHash('sha256').update(`${identity.profile}\n${identity.baseUrl}`).digest('hex').slice(0, 32);
    const path = join(dir, `${name}.json`);
    const empty: Stored = { ...identity, answers: {}, lists: [] };
    let stored: Stored | undefined;
    try {
      const bytes = await readRegularFile(path, MAX_FILE_BYTES);
      if (bytes) stored = parseStored(JSON.parse(bytes.toString('utf8')));
    } catch {
      // A damaged or foreign file is as good as none; the next write replaces it.
    }
    const ours = stored && stored.profile === identity.profile && stored.baseUrl === identity.baseUrl;
    return new IdCache(path, ours ? stored! : empty);
  }

  /** Not from the future either: a clock set back. */
  answer(kind: string, now: number): CompletedEntry[] | undefined {
    const answer = this.data.answers[kind];
    if (!answer || answer.at > now || now - answer.at >= ANSWER_TTL_MS) return undefined;
    return answer.entries;
  }

  setAnswer(kind: string, entries: readonly CompletedEntry[], now: number): void {
    this.data.answers[kind] = { at: now, entries: entries.filter((e) => isCompletableId(e.id)).slice(0, MAX_IDS) };
  }

  lists(): CompletedEntry[] {
    return this.data.lists.map(({ id, name }) => (name === undefined ? { id } : { id, name }));
  }

  /** True when worth writing: a new list or name, or one not moved up for a while. */
  rememberLists(entries: readonly CompletedEntry[], now: number, mask: (text: string) => string): boolean {
    let changed = false;
    for (const given of entries) {
      if (!isCompletableId(given.id)) continue;
      const entry = keptEntry(given, mask);
      const id = entry.id.toLowerCase();
      const known = this.data.lists.find((l) => l.id === id);
      const name = entry.name ?? known?.name;
      if (known && known.name === name && now - known.at < RECENCY_STEP_MS && known.at <= now) continue;
      this.data.lists = [{ id, ...(name === undefined ? {} : { name }), at: now }, ...this.data.lists.filter((l) => l.id !== id)];
      changed = true;
    }
    this.data.lists.length = Math.min(this.data.lists.length, MAX_LISTS);
    return changed;
  }

  /** A cache needs no fsync. */
  async save(): Promise<void> {
    await writePrivateFile(this.path, JSON.stringify(this.data), { durable: false });
  }
}

/** The key is masked before a name is cut, so no cut leaves a piece of a form the mask would know. */
export function keptEntries(entries: readonly CompletedEntry[], mask: (text: string) => string): CompletedEntry[] {
  const kept: CompletedEntry[] = [];
  for (const entry of entries) {
    if (kept.length >= MAX_IDS) break;
    if (isCompletableId(entry.id)) kept.push(keptEntry(entry, mask));
  }
  return kept;
}

function keptEntry({ id, name }: CompletedEntry, mask: (text: string) => string): CompletedEntry {
  return name === undefined ? { id } : { id, name: Array.from(mask(name)).slice(0, MAX_NAME_CHARS).join('') };
}

function parseStored(value: unknown): Stored | undefined {
  if (!isRecord(value) || typeof value.profile !== 'string' || typeof value.baseUrl !== 'string') return undefined;
  const answers: Stored['answers'] = {};
  if (isRecord(value.answers)) {
    for (const [kind, answer] of Object.entries(value.answers)) {
      if (isRecord(answer) && typeof answer.at === 'number' && Array.isArray(answer.entries)) answers[kind] = { at: answer.at, entries: answer.entries.slice(0, MAX_IDS).flatMap(entryOf) };
    }
  }
  const lists = Array.isArray(value.lists) ? value.lists.flatMap((l) => (isRecord(l) && typeof l.at === 'number' ? entryOf(l).map((e) => ({ ...e, at: l.at as number })) : [])) : [];
  return { profile: value.profile, baseUrl: value.baseUrl, answers, lists };
}

function entryOf(value: unknown): CompletedEntry[] {
  if (!isRecord(value) || !isCompletableId(value.id)) return [];
  return [typeof value.name === 'string' ? { id: value.id, name: value.name } : { id: value.id }];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** As bin/email chooses it for Node's compile cache; a relative HOME or XDG_CACHE_HOME is ignored (XDG spec). */
export function userCacheDir(env: Env): string | undefined {
  const absolute = (p: string | undefined) => (p && isAbsolute(p) ? p : undefined);
  const home = absolute(env.HOME) ?? (env.HOME ? undefined : absolute(homedir()));
  if (process.platform === 'win32') {
    const local = absolute(env.LOCALAPPDATA) ?? (home && join(home, 'AppData', 'Local'));
    return local && join(local, 'email-cli', 'Cache');
  }
  if (process.platform === 'darwin') return home && join(home, 'Library', 'Caches', 'email-cli');
  const base = absolute(env.XDG_CACHE_HOME) ?? (home && join(home, '.cache'));
  return base && join(base, 'email-cli');
}

/** Judged as bin/email judges the compile cache's: the files say which campaigns and lists the user works with. */
function privateCacheDir(env: Env): string | undefined {
  const base = userCacheDir(env);
  if (!base) return undefined;
  const dir = join(base, 'completion');
  const uid = typeof process.geteuid === 'function' ? process.geteuid() : undefined;
  try {
    let existing = dir;
    while (!lstatOrUndefined(existing) && dirname(existing) !== existing) existing = dirname(existing);
    if (!safeFrom(existing === dir ? dirname(dir) : existing, uid)) return undefined;
    if (existing !== dir) {
      // Created only under a directory of the same user: root with another user's HOME (sudo -E) leaves nothing in their way.
      if (uid !== undefined && lstatOrUndefined(existing)?.uid !== uid) return undefined;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    const own = lstatOrUndefined(dir);
    if (!own?.isDirectory() || (uid !== undefined && own.uid !== uid)) return undefined;
    return process.platform === 'win32' || (own.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Sticky directories aside. */
function safeFrom(dir: string, uid: number | undefined): boolean {
  if (process.platform === 'win32') return true;
  for (let at = dir; ; at = dirname(at)) {
    const st = lstatOrUndefined(at);
    if (!st?.isDirectory()) return false;
    if (uid !== undefined && st.uid !== uid && st.uid !== 0) return false;
    if (st.mode & 0o022 && !(st.mode & 0o1000)) return false;
    if (dirname(at) === at) return true;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
