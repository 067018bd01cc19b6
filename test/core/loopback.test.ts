// Which --host values name only this machine (no warning) and which can be reached from elsewhere.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/core/loopback.js';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.9.9.9', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', 'example.com', '127.0.0.1.example.com', 'localhost.example.com', 'api.localhost'])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
