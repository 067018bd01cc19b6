// Files of `webhooks listen --save`, read back by `webhooks replay`.
import { describe, expect, it } from 'vitest';
import { contentTypeForFile, savedDeliveryName } from '../../src/webhooks/saved-deliveries.js';

describe('savedDeliveryName', () => {
  it('names a file by arrival time and sequence, with the format as extension', () => {
    expect(savedDeliveryName(7, new Date('2025-03-04T05:06:07.089Z'), 'xml')).toBe('delivery-20250304T050607089Z-000007.xml');
  });

  it('sorts in arrival order, sequence breaking ties within one millisecond', () => {
    const at = new Date('2025-03-04T05:06:07.089Z');
    const later = new Date('2025-03-04T05:06:10.000Z');
    const names = [savedDeliveryName(10, at, 'json'), savedDeliveryName(9, at, 'json'), savedDeliveryName(11, later, 'json'), savedDeliveryName(2, at, 'json')];
    expect([...names].sort()).toEqual([names[3], names[1], names[0], names[2]]);
  });
});

describe('contentTypeForFile', () => {
  it('gives the Content-Type from the extension, in any case, and none for another', () => {
    expect(contentTypeForFile('/d/delivery-1.json')).toBe('application/json');
    expect(contentTypeForFile('/d/delivery-1.XML')).toBe('application/xml');
    expect(contentTypeForFile('/d/delivery-1.txt')).toBeUndefined();
    expect(contentTypeForFile('/d/json')).toBeUndefined();
  });
});
