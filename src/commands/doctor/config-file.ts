// Doctor's config file check: modes, owner and whether it reads, with the commands' own reader.
import { configDir, configFilePath, keyStoreOf, readConfig, type ConfigData } from '../../core/config.js';
import { lstatSync, statSync } from 'node:fs';
import { CliError } from '../../core/errors.js';
import { checkResult as result, type CheckResult, type CheckStatus } from '../../core/probes.js';

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

export interface ConfigInspection {
  result: CheckResult;
  path: string;
  data?: ConfigData;
}

/** File 0600, directory 0700; nothing is created or changed. */
export function inspectConfig(env: Readonly<Record<string, string | undefined>>): ConfigInspection {
  const dir = configDir(env);
  const path = configFilePath(dir);
  // What the commands refuse fails here with the same words.
  let data: ConfigData;
  try {
    data = readConfig(env).data;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { result: result('config file', 'fail', error.message, error.hint ?? 'fix the file, or move it away and run `email auth login` again'), path };
  }
  const dirStat = statOrUndefined(dir);
  const fileStat = statOrUndefined(path, lstatSync);
  if (!dirStat || !fileStat) return { result: result('config file', 'ok', `none yet (${path}); nothing stored`), path, data };
  const posix = process.platform !== 'win32';
  const problems: string[] = [];
  const hints: string[] = [];
  let status: CheckStatus = 'ok';
  if (posix && fileStat.mode & 0o077) {
    // Keys kept in the keychain are not in the file: then it is settings only, still worth keeping private.
    const stores = Object.values(data.profiles).map(keyStoreOf);
    const keysInFile = stores.includes('file');
    status = keysInFile ? 'fail' : 'warn';
    const readable = keysInFile ? 'the keys in it' : `it (it holds no key${stores.includes('keychain') ? ': they are in the keychain' : ''})`;
    problems.push(`the file is ${octal(fileStat.mode)}: other users can read ${readable}`);
    hints.push(`chmod 600 '${path}'`);
  }
  if (posix && dirStat.mode & 0o077) {
    if (status === 'ok') status = 'warn';
    problems.push(`the directory is ${octal(dirStat.mode)}, not 0700`);
    hints.push(`chmod 700 '${dir}'`);
  }
  if (posix && typeof process.getuid === 'function' && fileStat.uid !== process.getuid()) {
    if (status === 'ok') status = 'warn';
    problems.push(`the file belongs to user ${fileStat.uid}, not to you`);
    hints.push('run the tool as the user who logged in, or log in again as yourself');
  }
  const profiles = Object.keys(data.profiles);
  const summary = `${path} (${posix ? `file ${octal(fileStat.mode)}, directory ${octal(dirStat.mode)}; ` : ''}${profiles.length} profile${profiles.length === 1 ? '' : 's'}, ${data.defaultProfile ? `default "${data.defaultProfile}"` : 'no default profile'})`;
  return { result: result('config file', status, problems.length ? `${summary}: ${problems.join('; ')}` : summary, hints.join('; ') || undefined), path, data };
}

function statOrUndefined(path: string, stat: typeof statSync = statSync) {
  try {
    return stat(path);
  } catch {
    return undefined;
  }
}
