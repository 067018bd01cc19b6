// The thread --jq runs in: jq's WebAssembly runs synchronously for as long as
// the expression takes, so the main thread must stay free to terminate it.
// Output is taken at WASI fd_write and posted in chunks; past WINDOW unwritten
// characters this thread blocks, so a reader that never reads holds jq, not the heap.
import { parentPort, workerData } from 'node:worker_threads';
import { loadJq, type Jq } from 'jq-wasm';
import wasmAsset from 'jq-wasm/jq.wasm';
import type { FromJq, ToJq, JqWorkerData } from './jq-protocol.js';

const { outstanding: sharedCount, window: WINDOW } = workerData as JqWorkerData;
const outstanding = new Int32Array(sharedCount);
const CHUNK = 64 * 1024;
const STDERR_KEPT = 16 * 1024;

// The project's lib has no DOM types, where WebAssembly's live.
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
// jq-wasm reports an engine abort with console.error, which from a worker reaches
// stderr raw, past the edge: keep it with jq's stderr, for the error message.
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

/** WASI fd_write: the bytes come here instead of into jq-wasm's buffers, which would hold all of them. */
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

/** jq-wasm's imports are minified; this one is found by its kept name, and --jq fails at once should it change. */
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
    // Compiling: an empty input means the expression is checked, never run.
    exitCode = message.type === 'check' ? jq.raw('', message.expression).exitCode : jq.raw(message.input, message.expression, ['-r', '-c']).exitCode;
    flush();
  } catch (err) {
    exitCode = -1;
    stderrTail += `\njq: error: ${(err as Error).message}`;
  }
  post({ type: 'done', exitCode, stderr: stderrTail + stderrText.decode() });
}
