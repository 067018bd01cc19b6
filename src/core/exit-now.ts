// The process's exit when a native call may still be running on libuv's
// thread pool (a keychain that does not answer, src/core/keychain.ts): Node's
// process.exit() joins that pool's threads, so it would wait for the call to
// end (D-Bus gives up after 25 s), through any signal. Replacing the process
// image with a shell that exits with the same code ends those threads at once.

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
  // Windows has no execve: there the exit waits.
  if (stuck > 0 && process.execve) {
    try {
      process.execve('/bin/sh', ['sh', '-c', `exit ${code}`], {});
    } catch {
      // No shell to become: the ordinary exit below, which waits.
    }
  }
  process.exit(code);
}
