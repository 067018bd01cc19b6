// Exit while a native call (a hung keychain) may still hold a libuv thread: process.exit() joins
// the pool and would wait through any signal; replacing the process image with a shell that exits
// with the same code ends those threads at once.

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
