// The properties judged on a server without the probe tools are the ones docs/probe-tools.md names, and only those can
// be asked for on such a server.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROPERTY_NAMES } from '../../properties/names.ts';
import { COOPERATION_FREE, MARKER_JUDGED, judgedProperties } from './cooperation.ts';

describe('what is judged without the probe tools', () => {
  it('docs/probe-tools.md names every property judged without them, and no other', () => {
    const page = readFileSync(new URL('../../docs/probe-tools.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## What is judged without the probe tools'), page.indexOf('## What is never driven over the wire'));
    const echo = section.indexOf('### Through the server\'s own echo tool');
    const named = (text: string) => PROPERTY_NAMES.filter((name) => text.includes(`\`${name}\``));
    expect(named(section.slice(0, echo))).toEqual(PROPERTY_NAMES.filter((name) => COOPERATION_FREE.includes(name)));
    // The echo's part names what its marker adds.
    for (const name of MARKER_JUDGED) expect(section.slice(echo)).toContain(`\`${name}\``);
  });

  it('without the probe tools only those are checked; with them, whatever was asked for', () => {
    expect(judgedProperties(undefined, { probe: false })).toEqual(PROPERTY_NAMES.filter((name) => COOPERATION_FREE.includes(name)));
    expect(judgedProperties(['retry-before-close', 'no-lost-result'], { probe: false })).toEqual(['retry-before-close']);
    expect(judgedProperties(['no-lost-result'], { probe: true })).toEqual(['no-lost-result']);
  });

  it('through an echo tool with a marker, the properties that read only whose result a message is are judged too', () => {
    expect(judgedProperties(['era-isolation', 'modern-exchange-own-messages', 'no-lost-result'], { probe: false, echo: true })).toEqual(['era-isolation', 'modern-exchange-own-messages']);
    expect(judgedProperties(['era-isolation'], { probe: false, echo: false })).toEqual([]);
    expect(judgedProperties(['disconnect-stops-work'], { probe: true })).toEqual([]);
  });
});
