import { describe, expect, it } from 'vitest';
import { sameOriginHref } from './report-links';

const PAGE = 'https://app.example/reports';

describe('sameOriginHref', () => {
  it.each([
    ['/units', 'https://app.example/units'],
    ['units/1?tab=stock', 'https://app.example/units/1?tab=stock'],
    ['#top', 'https://app.example/reports#top'],
    ['https://app.example/reports', 'https://app.example/reports'],
    ['HTTPS://APP.EXAMPLE:443/x', 'https://app.example/x'],
  ])('keeps %j as %j', (href, kept) => {
    expect(sameOriginHref(href, PAGE)).toBe(kept);
  });

  it.each([
    'https://evil.example/reset',
    '//evil.example/reset',
    '\\\\evil.example/reset',
    '/\\evil.example/reset',
    'https://app.example.evil.example/',
    'https://app.example@evil.example/',
    'https://app.example:8443/',
    'http://app.example/',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'mailto:someone@evil.example',
    'https://[not a host',
  ])('drops %j', (href) => {
    expect(sameOriginHref(href, PAGE)).toBeNull();
  });
});
