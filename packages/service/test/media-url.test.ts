import { describe, expect, it } from 'vitest';
import { isAllowedAddress, refuseImageUrl } from '../src/media/url-fetch.ts';

const strict = { allowLoopback: false, timeoutMs: 1000 };
const loopbackAllowed = { allowLoopback: true, timeoutMs: 1000 };

describe('isAllowedAddress', () => {
  it.each([
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['0.0.0.0', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['198.18.0.1', false],
    ['192.0.2.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:93.184.215.14', true],
    ['::ffff:7f00:1', false],
    ['0:0:0:0:0:ffff:7f00:1', false],
    ['::ffff:5db8:d70e', true],
    ['64:ff9b::7f00:1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['2002:7f00:1::', false],
    ['not an address', false],
  ])('%s → %s', (address, allowed) => {
    expect(isAllowedAddress(address, strict)).toBe(allowed);
  });

  it('opens loopback only, and only with the operator’s override', () => {
    expect(isAllowedAddress('127.0.0.1', loopbackAllowed)).toBe(true);
    expect(isAllowedAddress('::1', loopbackAllowed)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', loopbackAllowed)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', loopbackAllowed)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', loopbackAllowed)).toBe(false);
  });
});

describe('refuseImageUrl', () => {
  it.each([
    'file:///etc/passwd',
    'ftp://example.com/a.png',
    'gopher://example.com/',
    'http://user:pass@example.com/a.png',
    'http://127.0.0.1/a.png',
    'http://2130706433/a.png', // 127.0.0.1 written as one number: the URL parser normalises it
    'http://0x7f.1/a.png',
    'http://[::1]/a.png',
    'http://[::ffff:7f00:1]/a.png',
    'http://169.254.169.254/latest/meta-data',
    'not a url',
    `https://example.com/${'a'.repeat(2100)}`,
  ])('refuses %s', (url) => {
    expect(refuseImageUrl(url, strict)).toEqual(expect.any(String));
  });

  it.each(['https://example.com/a.png', 'http://images.example:8080/x.webp', 'https://93.184.215.14/a.jpg'])(
    'lets %s through to the connect-time check',
    (url) => {
      expect(refuseImageUrl(url, strict)).toBeNull();
    },
  );
});
