// Files written by `webhooks listen --save` and read by `webhooks replay`:
// one delivery per file, the body exactly as it arrived, named so that a
// directory listing sorts in arrival order and the extension tells the format
// (`jq` and an XML viewer open them as they are).
import { extname } from 'node:path';
import { CONTENT_TYPES, type DeliveryFormat } from './events.js';

export function savedDeliveryName(seq: number, receivedAt: Date, format: DeliveryFormat): string {
  const stamp = receivedAt.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `delivery-${stamp}-${String(seq).padStart(6, '0')}.${format}`;
}

/** Whether `name` is one savedDeliveryName() gives. */
export function isSavedDeliveryName(name: string): boolean {
  return /^delivery-\d{8}T\d{9}Z-\d{6,}\.(?:json|xml)$/.test(name);
}

/** The Content-Type to replay a saved file with: from its extension, else undefined (the receiver sniffs, as listen does). */
export function contentTypeForFile(path: string): string | undefined {
  const ext = extname(path).slice(1).toLowerCase();
  if (ext === 'json' || ext === 'xml') return CONTENT_TYPES[ext as DeliveryFormat];
  return undefined;
}
