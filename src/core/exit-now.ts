// The process's exit when a native call may still be running on libuv's
// thread pool (a keychain that does not answer, src/core/keychain.ts): Node's
// process.exit() joins that pool's threads, so it would wait for the call to
// end (D-Bus gives up after 25 s), through any signal. Replacing the process
// image with a shell that exits with the same code ends those threads at once.
// process.execve is in Node 22.15 and 23.11 on. An older Node has no way to
// exit with a code and not join: it ends by a signal instead, SIGINT for an
// interruption (a shell sees 130, as for the exit code) and SIGKILL for any
// other code (137), rather than wait on a call that may never end.

let stuck = 0;

/** A native call the program no longer waits for, still holding a thread of the pool until it settles. */
export function leftRunning(call: Promise<unknown>): void {
  stuck++;
  const settled = () => {
    stuck--;
  };
  call.then(settled, settled);
}

/** process.exit(code), without waiting for a native call left running. */
export function exitProcess(code: number): never {
  const execve = (process as { execve?: (file: string, args: string[], env?: NodeJS.ProcessEnv) => never }).execve;
  if (stuck > 0 && typeof execve === 'function' && process.platform !== 'win32') {
    try {
      execve.call(process, '/bin/sh', ['sh', '-c', `exit ${code}`], {});
    } catch {
      // No shell to become: the ordinary exit below, which waits.
    }
  } else if (stuck > 0 && process.platform !== 'win32') {
    const signal = code === 130 ? 'SIGINT' : 'SIGKILL';
    // Our own handlers off, so that the signal takes its default action.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code);
}
