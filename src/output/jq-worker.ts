// The thread --jq runs in (src/output/jq.ts): jq's WebAssembly runs
// synchronously, for as long as the expression takes (`last(range(1e11))`:
// hours), so it cannot share the main thread, where Ctrl-C, SIGTERM and a
// closed stdout must be heard (CLI.md "signals", "broken pipe"). Here it
// runs where the main thread can terminate it at any moment.
//
// Its output streams (CLI.md "answer size"): jq's writes to stdout are taken
// at the WebAssembly boundary (WASI fd_write), as jq makes them, and posted
// to the main thread in chunks. Posted text the main thread
// has not yet written is counted in shared memory; past WINDOW characters
// this thread blocks (Atomics.wait) until stdout takes some, so memory stays
// at the window whatever jq prints, and a reader that never reads holds jq,
// not the heap. jq's stderr keeps only its last lines, for the error message.
// Measured on Node 20: `--jq 'range(3e7)' | head -1` printed
// nothing in 20 s and held 395 MB when jq-wasm's own buffer took the output;
// so, 0 at once, exit 0 after 0.9 s, peak RSS 96 MB.
//
// Bundled on its own into dist/jq.cjs with jq's wasm inside it
// (scripts/build.mjs): nothing but --jq loads it.
import { parentPort, workerData } from 'node:worker_threads';
import { loadJq, type Jq } from 'jq-wasm';
import wasmAsset from 'jq-wasm/jq.wasm';
import type { FromJq, ToJq, JqWorkerData } from './jq-protocol.js';

const { outstanding: sharedCount, window: WINDOW } = workerData as JqWorkerData;
const outstanding = new Int32Array(sharedCount);
/** Bytes of output posted at once. */
const CHUNK = 64 * 1024;
/** jq's stderr kept for the error message: its end, where jq's error is. */
const STDERR_KEPT = 16 * 1024;

// WebAssembly as this file uses it (the project's lib has no DOM types, where its own live).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
type WasmImports = Record<string, Record<string, unknown>>;
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: WasmImports): Promise<{ instance: { exports: Record<string, unknown> }; module: unknown }>;
  Memory: abstract new (...args: never[]) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const port = parentPort!;
// jq-wasm reports an abort of the engine (out of memory: `Aborted()`) with
// console.error, which from a worker reaches the process's stderr raw, past
// the edge (a line that is not JSON in machine mode): it is kept with jq's
// stderr instead, for the error message.
console.error = (...parts: unknown[]) => {
  stderrTail = `${stderrTail}\n${parts.map(String).join(' ')}`.slice(-STDERR_KEPT);
};
let memory: WasmMemory | undefined;

const pending = new Uint8Array(CHUNK);
let pendingLength = 0;
let stdoutText = new TextDecoder();
let stderrText = new TextDecoder();
let stderrTail = '';

function post(message: FromJq): void {
  port.postMessage(message);
}

/** Posts the output held so far, then waits while the main thread is more than WINDOW behind. */
function flush(): void {
  const text = stdoutText.decode(pending.subarray(0, pendingLength), { stream: true });
  pendingLength = 0;
  if (text) {
    post({ type: 'out', text });
    Atomics.add(outstanding, 0, text.length);
  }
  for (;;) {
    const behind = Atomics.load(outstanding, 0);
    if (behind <= WINDOW) break;
    Atomics.wait(outstanding, 0, behind, 1000);
  }
}

function stdout(bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const n = Math.min(bytes.length - offset, pending.length - pendingLength);
    pending.set(bytes.subarray(offset, offset + n), pendingLength);
    pendingLength += n;
    offset += n;
    if (pendingLength === pending.length) flush();
  }
}

function stderr(bytes: Uint8Array): void {
  stderrTail = (stderrTail + stderrText.decode(bytes, { stream: true })).slice(-STDERR_KEPT);
}

/** WASI fd_write(fd, iovs, iovs_len, nwritten) for stdout and stderr: the bytes come here instead of into jq-wasm's buffers, which would hold all of them. */
function fdWrite(fd: number, iovs: number, count: number, written: number): number {
  const view = new DataView(memory!.buffer);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const at = view.getUint32(iovs + i * 8, true);
    const length = view.getUint32(iovs + i * 8 + 4, true);
    if (!length) continue;
    // A view, copied by stdout() before jq can reuse it.
    const bytes = new Uint8Array(memory!.buffer, at, length);
    if (fd === 1) stdout(bytes);
    else stderr(bytes);
    total += length;
  }
  new DataView(memory!.buffer).setUint32(written, total, true);
  return 0;
}

/**
 * jq-wasm's build names its imports with letters; the function is found by
 * its own name, kept by the build (scripts/build.mjs `keepNames`). Should a
 * new version of jq-wasm rename it, --jq fails at once rather than holding
 * its whole output in memory (test/e2e/jq.test.ts).
 */
function hookWrites(imports: WasmImports): void {
  for (const module of Object.values(imports)) {
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || value.name !== '_fd_write') continue;
      const original = value as (fd: number, iovs: number, count: number, written: number) => number;
      (module as Record<string, unknown>)[name] = (fd: number, iovs: number, count: number, written: number) =>
        fd === 1 || fd === 2 ? fdWrite(fd, iovs, count, written) : original(fd, iovs, count, written);
      return;
    }
  }
  throw new Error("jq-wasm's fd_write import was not found: its output cannot be streamed");
}

const engine: Promise<Jq> = loadJq({
  instantiateWasm(imports, onSuccess) {
    hookWrites(imports as WasmImports);
    // The bundle carries the wasm bytes (scripts/build.mjs loads .wasm as binary).
    const bytes = wasmAsset as unknown as Uint8Array;
    void wasm.instantiate(bytes, imports as WasmImports).then(({ instance, module }) => {
      memory = Object.values(instance.exports).find((e): e is WasmMemory => e instanceof wasm.Memory);
      onSuccess(instance as never, module as never);
    });
  },
});

port.on('message', (message: ToJq) => {
  void handle(message);
});

async function handle(message: ToJq): Promise<void> {
  let jq: Jq;
  try {
    jq = await engine;
  } catch (err) {
    post({ type: 'done', exitCode: -1, stderr: `jq: error: ${(err as Error).message}` });
    return;
  }
  pendingLength = 0;
  stdoutText = new TextDecoder();
  stderrText = new TextDecoder();
  stderrTail = '';
  let exitCode: number;
  try {
    // Compiling: jq reads its input only after the program compiled, and an
    // empty input gives it none, so the expression is checked, never run.
    // Running: strings raw, other values as compact JSON, one a line (CLI.md `--jq`).
    exitCode = message.type === 'check' ? jq.raw('', message.expression).exitCode : jq.raw(message.input, message.expression, ['-r', '-c']).exitCode;
    flush();
  } catch (err) {
    // The engine itself failed (out of memory in WebAssembly, for one).
    exitCode = -1;
    stderrTail += `\njq: error: ${(err as Error).message}`;
  }
  post({ type: 'done', exitCode, stderr: stderrTail + stderrText.decode() });
}
