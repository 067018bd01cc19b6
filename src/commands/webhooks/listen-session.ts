// `email webhooks listen` (CLI.md "webhooks"): a local receiver whose 200 means
// delivered: saved before the answer, printed, or forwarded. A delivery no sink
// takes within ANSWER_WAIT_MS is withdrawn and answered 503, so the service sends
// it again; what is held waiting for sinks stays under the receiver's bound.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { isBrokenPipe, UsageError } from '../../core/errors.js';
import { OUTPUT_GRACE_MS } from '../../core/interrupts.js';
import { Limiter } from '../../core/limiter.js';
import { neutralize } from '../../core/neutralize.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { UnsafePathError, writePrivateFile } from '../../core/private-file.js';
import { sweepTemporaries } from '../../core/private-temporaries.js';
import { folderTarget } from '../../core/write-target.js';
import type { Column, Input, Result } from '../define.js';
import { eventQueue } from '../../webhooks/event-queue.js';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEvent } from '../../webhooks/events.js';
import { answerExcerpt, describeOutcome, forwardableHeaders, isSuccess, PlainPoster, postBody, receiverUrl } from '../../webhooks/post.js';
import { DEFAULT_MAX_HELD_BYTES, NOT_TAKEN, startDeliveryReceiver, type ReceivedDelivery, type RunningReceiver } from '../../webhooks/receiver.js';
import { isSavedDeliveryName, savedDeliveryName } from '../../webhooks/saved-deliveries.js';
import type { options } from './listen-options.js';

type ListenInput = Input<{}, typeof options>;

const EVENT_COLUMNS: Column[] = [
  { key: 'Type' },
  // Dates and addresses are copied whole: a narrow terminal shortens the name instead.
  { key: 'Date', fixed: true },
  { key: 'EmailAddress', fixed: true },
  { key: 'Name' },
  { key: 'State' },
  { key: 'ListID', fixed: true },
];

/**
 * How long a forward waits for the target's answer unless --timeout says
 * otherwise. Forwards go one at a time: a target that takes longer holds up
 * every delivery behind it, which then fill the receiver's bound.
 */
const DEFAULT_FORWARD_TIMEOUT_MS = 5_000;

/**
 * How long a delivery kept nowhere but in memory waits for a sink to take it
 * before it is answered 503: a reader of stdout or a forward target that
 * works takes one in milliseconds, and the sender's request stays open meanwhile.
 */
const ANSWER_WAIT_MS = 2_000;

const yes = () => true;
const no = () => false;

/** A promise of false after `ms`; cancel() clears its timer, which would otherwise keep what it closes over alive until then. */
function timeout(ms: number): { expired: Promise<boolean>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  return { expired, cancel: () => clearTimeout(timer) };
}

/** A sender's text as a notice quotes it: cut to `max` characters on one line, since a sender may write megabytes into a ListID. */
export function quoted(text: string, max = 40): string {
  if (text.length <= max) return neutralize(text);
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return `${neutralize(text.slice(0, end))}… (${text.length} characters)`;
}

/** Each event as received, with the ListID of its delivery so one line stands on its own (`jq 'select(.ListID == …)'`). */
function eventRecord(event: WebhookEvent, delivery: WebhookDelivery): WebhookEvent {
  return 'ListID' in event ? event : { ...event, ListID: delivery.ListID };
}

export async function listenCommand(flags: ListenInput, ctx: Context): Promise<Result> {
  const shown = eventTypesToShow(flags.events);
  if (!flags.host.trim()) throw new UsageError('--host must not be empty');
  const forwardTo = flags.forwardTo !== undefined ? receiverUrl('--forward-to', flags.forwardTo) : undefined;
  const saveDir = flags.save !== undefined ? resolve(ctx.cwd, flags.save) : undefined;
  if (saveDir) {
    try {
      await folderTarget(saveDir);
    } catch (error) {
      if (error instanceof UnsafePathError) throw new UsageError(`--save ${error.message}: name a folder for the deliveries`);
      throw error;
    }
    try {
      await mkdir(saveDir, { recursive: true });
    } catch (error) {
      throw new UsageError(`--save: cannot create ${saveDir}: ${(error as Error).message}`);
    }
    // A folder that takes no file is refused now, before any sender is answered 500 for it.
    const probe = join(saveDir, `.email-save-check-${randomBytes(8).toString('hex')}`);
    try {
      await writePrivateFile(probe, '', { existing: 'refuse', durable: false, sweep: false });
      await rm(probe, { force: true });
      // What a killed listener left half-written here goes now: the saves themselves do not sweep.
      await sweepTemporaries(saveDir, (name) => isSavedDeliveryName(name) || /^\.email-save-check-[0-9a-f]{16}$/.test(name));
    } catch (error) {
      throw new UsageError(`--save: cannot save deliveries in ${saveDir}: ${(error as Error).message}`);
    }
  }

  const counts = { deliveries: 0, printed: 0, events: 0, rejected: 0, busy: 0, notTaken: 0, forwarded: 0, forwardFailed: 0, forwardTimedOut: 0, saved: 0, unsaved: 0 };
  // Answering 503 since the last delivery taken: the first refusal of a spell gets a warning, the others a debug line.
  let full = false;
  // Saves one at a time, in arrival order: deliveries are then answered and printed in that order too.
  const saving = new Limiter(1);
  // Forwards one at a time, in arrival order, as the service itself delivers.
  const forwarding = new Limiter(1);
  const poster = new PlainPoster();
  // The session's events, one stream (one JSON array, one CSV header) without end: the renderer
  // writes them as they come, never through a pager, each delivery shown before the next is waited for.
  const events = eventQueue<WebhookEvent>();

  // A sink stuck since a delivery was withdrawn: the next ones are answered 503 at once, until a sink takes one.
  let stalled = false;
  let stopping = false;
  let onStop: () => void = () => undefined;
  // Made once: a promise made per delivery and left waiting on this one would keep each delivery's body until the stop.
  const stoppedAnswer = new Promise<boolean>((resolve) => (onStop = () => resolve(false)));
  // Deliveries answered 200 whose events stdout has not taken yet: named at the end if it never does.
  const unprinted = new Map<number, ReceivedDelivery>();

  const onDelivery = async (received: ReceivedDelivery): Promise<boolean> => {
    const { delivery, seq } = received;
    const kept = Boolean(saveDir);
    // A stdout that took nothing since a delivery was withdrawn, and is still writing: no use waiting again.
    if (!kept && (stopping || (stalled && !events.idle && !forwardTo))) return refuse(received);
    // The delivery counts against the receiver's bound until every sink is done with it.
    let sinks = 1 + (forwardTo ? 1 : 0);
    const sinkDone = () => {
      if (--sinks === 0) received.done();
    };
    let tookIt: () => void = () => undefined;
    const taken = new Promise<void>((resolve) => (tookIt = resolve));
    const printed = delivery.Events.filter((event) => !shown || shown.has(String(event.Type))).map((event) => eventRecord(event, delivery));
    unprinted.set(seq, received);
    let withdrawn = false;
    const withdraw = events.push(printed, (written) => {
      sinkDone();
      if (!written) return;
      unprinted.delete(seq);
      counts.printed++;
      stalled = false;
      tookIt();
    });
    let forwardStarted = false;
    const forwarded = forwardTo
      ? forwarding
          .run(async () => {
            try {
              if (withdrawn) return;
              forwardStarted = true;
              if (await forward(received)) {
                stalled = false;
                tookIt();
              }
            } finally {
              sinkDone();
            }
          })
          .catch((error: unknown) => ctx.log.warn(`forwarding delivery ${seq}: ${(error as Error).message}`))
      : undefined;
    if (!kept) {
      const deadline = timeout(ANSWER_WAIT_MS);
      let took = await Promise.race([taken.then(yes), deadline.expired, stoppedAnswer]);
      deadline.cancel();
      // A forward under way has its own deadline (--timeout): its outcome decides.
      if (!took && forwardStarted && !stopping) took = await Promise.race([taken.then(yes), forwarded!.then(no), stoppedAnswer]);
      if (!took && withdraw()) {
        withdrawn = true;
        unprinted.delete(seq);
        // Its printing is let go; a forward not yet started will not start (its task lets go of its part).
        sinkDone();
        return refuse(received, true);
      }
    }
    full = false;
    counts.deliveries++;
    counts.events += delivery.Events.length;
    ctx.log.info(`delivery ${seq}: ${delivery.Events.length} event${delivery.Events.length === 1 ? '' : 's'} (${received.format}, ${received.body.length} bytes) for list ${quoted(delivery.ListID)}`);
    return true;
  };

  /** Answers 503: nothing took the delivery (or it came while nothing takes any); the service sends it again. */
  const refuse = (received: ReceivedDelivery, waited = false): false => {
    if (!waited) received.done();
    counts.notTaken++;
    if (!stalled && !stopping) ctx.log.warn(`delivery ${received.seq} answered 503: no sink took it within ${ANSWER_WAIT_MS / 1000} s (standard output not read${forwardTo ? ', the forward target not answering' : ''}); the service sends it again, and the next ones get 503 until a sink takes one`);
    else ctx.log.debug(`delivery ${received.seq} answered 503: no sink takes deliveries now`);
    if (waited) stalled = true;
    return false;
  };

  /** Posts a delivery to --forward-to; true when the target accepted it. */
  const forward = async (received: ReceivedDelivery): Promise<boolean> => {
    const { seq } = received;
    const outcome = await postBody(forwardTo!, received.body, received.contentType, {
      headers: forwardableHeaders(received.headers),
      timeoutMs: ctx.globals.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS,
      poster,
    });
    const excerpt = answerExcerpt(outcome);
    if (excerpt) ctx.log.debug(`the forward target answered delivery ${seq} with ${outcome.status}: ${excerpt}`);
    if (isSuccess(outcome)) {
      counts.forwarded++;
      ctx.log.info(`forwarded delivery ${seq} to ${forwardTo!.href}: ${outcome.status} (${outcome.elapsedMs} ms)`);
      return true;
    }
    if (outcome.timedOut) counts.forwardTimedOut++;
    else counts.forwardFailed++;
    ctx.log.warn(`forwarding delivery ${seq} to ${forwardTo!.href}: ${describeOutcome(outcome)} (${outcome.elapsedMs} ms)`);
    return false;
  };

  /** Saves a delivery before it is answered; a failure is the reason of the 500 the sender gets. */
  const save = (received: Omit<ReceivedDelivery, 'done'>): Promise<void> => {
    const path = join(saveDir!, savedDeliveryName(received.seq, received.receivedAt, received.format));
    return saving.run(async () => {
      try {
        // Deliveries are personal data: readable by their owner only, written whole or not at all, never
        // through a link, never over a file already there (core/private-file.ts, CLI.md "webhooks listen").
        await writePrivateFile(path, received.body, { existing: 'refuse', sweep: false });
      } catch (error) {
        counts.unsaved++;
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'EEXIST' ? `${path} already exists; it is left as it is` : error instanceof UnsafePathError ? error.message : `cannot write ${path} (${code ?? (error as Error).message})`;
        ctx.log.warn(`delivery ${received.seq} not saved: ${why}; answered 500, so the service sends it again`);
        throw error;
      }
      counts.saved++;
      ctx.log.debug(`saved delivery ${received.seq} to ${path}`);
    });
  };

  let receiver: RunningReceiver;
  try {
    receiver = await startDeliveryReceiver({
      port: flags.port,
      host: flags.host,
      persist: saveDir ? save : undefined,
      onDelivery,
      onRejected: (r) => {
        // Not saved: save() has said why; not taken: refuse() has.
        if (r.status === 500 || r.reason === NOT_TAKEN) return;
        if (r.status === 503) {
          counts.busy++;
          if (full) return ctx.log.debug(`answered 503 to a ${r.method} from ${r.remoteAddress ?? 'unknown'}: ${r.reason}`);
          full = true;
          const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
          return ctx.log.warn(
            `holding ${mib(receiver.stats().heldBytes)} of deliveries not yet printed, saved or forwarded (at most ${mib(DEFAULT_MAX_HELD_BYTES)}): answering 503 until some are done`,
          );
        }
        counts.rejected++;
        ctx.log.warn(`rejected a ${quoted(r.method)} from ${r.remoteAddress ?? 'unknown'} with ${r.status}: ${quoted(r.reason, 200)}`);
      },
      now: () => ctx.now(),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${flags.port} on ${flags.host} is in use; choose another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') throw new UsageError(`cannot listen on ${flags.host}:${flags.port} (${code})`);
    throw error;
  }

  // Always shown, even with --quiet: with --port 0 it is the only way to learn the port. stdout stays for data.
  ctx.log.always(`Listening on ${receiver.url}`);
  if (!isLoopbackHost(flags.host)) {
    ctx.log.warn(`listening on ${flags.host}, not only on this machine: deliveries carry no signature, so anyone who can reach this port can post events and they will be taken as real ones`);
  }
  if (forwardTo) ctx.log.info(`Forwarding each delivery to ${forwardTo.href}`);
  if (saveDir) ctx.log.info(`Saving each delivery in ${saveDir}`);

  /** Deliveries answered 200 (saved, forwarded) whose events stdout never took: named, with their events, so none is lost unsaid. */
  const nameUnprinted = () => {
    for (const { seq, delivery } of unprinted.values()) {
      const list = delivery.Events.map((e) => `${quoted(String(e.Type), 12)} ${quoted(String(e.EmailAddress ?? ''), 80)}`).join(', ');
      ctx.log.warn(`delivery ${seq} (list ${quoted(delivery.ListID)}, ${saveDir ? 'saved' : 'forwarded'}) not printed: ${list}`);
    }
  };
  const readerGone = () => isBrokenPipe(ctx.signal.reason);
  // The reader of stdout gone with nowhere else to put events: the end says nothing more.
  const quietly = () => readerGone() && !saveDir && !forwardTo;
  const summary = () => {
    const parts = [`${counts.deliveries} deliver${counts.deliveries === 1 ? 'y' : 'ies'}`, `${counts.events} event${counts.events === 1 ? '' : 's'}`];
    if (counts.rejected) parts.push(`${counts.rejected} rejected`);
    if (counts.busy) parts.push(`${counts.busy} refused with 503 while full`);
    if (counts.notTaken) parts.push(`${counts.notTaken} answered 503 as no sink took them (to be sent again)`);
    if (unprinted.size) parts.push(`${unprinted.size} not printed (listed above): standard output took nothing for ${OUTPUT_GRACE_MS / 1000} s`);
    if (forwardTo) {
      parts.push(`${counts.forwarded} forwarded`);
      if (counts.forwardFailed) parts.push(`${counts.forwardFailed} not accepted by the target`);
      if (counts.forwardTimedOut) parts.push(`${counts.forwardTimedOut} timed out`);
    }
    if (saveDir) parts.push(`${counts.saved} saved`);
    if (counts.unsaved) parts.push(`${counts.unsaved} not saved (answered 500, to be sent again)`);
    return `received ${parts.join(', ')}`;
  };
  ctx.serve({
    // What is held is printed while stdout takes it (src/output/serving.ts); saves and forwards are finished.
    async stop() {
      if (!quietly()) ctx.log.info('stopping…');
      stopping = true;
      onStop();
      await receiver.close();
      events.end();
      // Their turns come after every save and forward queued.
      await saving.run(async () => undefined);
      await forwarding.run(async () => undefined);
      await poster.close();
    },
    outlivesStdout: Boolean(saveDir || forwardTo),
  });
  return {
    data: events.records,
    columns: EVENT_COLUMNS,
    message: () => {
      if (quietly()) return undefined;
      nameUnprinted();
      return summary();
    },
  };
}

/** `--events Subscribe,Update` (CLI.md "webhooks listen"): the types to print, matched in any case; undefined prints all. */
function eventTypesToShow(value: string | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  const shown = new Set<string>();
  for (const given of value.split(',').map((t) => t.trim()).filter(Boolean)) {
    const type = WEBHOOK_EVENT_TYPES.find((t) => t.toLowerCase() === given.toLowerCase());
    if (!type) throw new UsageError(`--events: "${given}" is not an event type; the types are ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    shown.add(type);
  }
  if (!shown.size) throw new UsageError(`--events needs at least one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return shown;
}
