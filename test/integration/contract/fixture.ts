/**
 * One home every surface sees the same way: the checkout's bundled packs (the ones the real
 * `skilltray` bin loads) plus a user skill with a tool that needs approval, sections, a reference
 * file and a binary file.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROCESS_FIXTURES, skillMd, tempDir, testHome, writeFiles, writeSkill, type TestHome } from '../../support/temp.js';

/** The checkout's `skills/`, which `bin/skilltray.js` loads as the bundled root. */
export const REPO_SKILLS = fileURLToPath(new URL('../../../skills', import.meta.url));

/** The checkout's `bin/skilltray.js`. */
export const BIN = fileURLToPath(new URL('../../../bin/skilltray.js', import.meta.url));

const PRINT_ARGV = join(PROCESS_FIXTURES, 'print-argv.mjs');

/** The user skill's SKILL.md: a procedure with one tool (user trust, so it asks) and a few sections. */
export const FIELD_NOTES_MD = skillMd(
  [
    'name: field-notes',
    'description: Keep field notes about birds seen outdoors. Use when logging a bird sighting.',
    'version: 1.0.0',
    `reads: [${PROCESS_FIXTURES}]`,
    'metadata:',
    '  classification:',
    '    role: procedure',
    '    invocation: direct',
    '    effect_mode: enrich',
    '    domain: [nature]',
    '    tags: [birds, sighting, birdwatching]',
    '    status: stable',
  ].join('\n'),
  [
    '',
    '# Field notes',
    '',
    '## Installation',
    '',
    'Bring binoculars and a pencil.',
    '',
    '## Logging a sighting',
    '',
    'Write down the species, the place and the time.',
    '',
    '## Tools',
    '',
    '### record_sighting',
    '',
    'Records one sighting.',
    '',
    '#### Parameters',
    '',
    '| Name | Type | Required | Description |',
    '|---|---|---|---|',
    '| species | string | yes | the bird seen |',
    '',
    '#### Command',
    '',
    '```',
    `${process.execPath} ${PRINT_ARGV} <<species>>`,
    '```',
    '',
  ].join('\n'),
);

export const SPECIES_MD = '# Species\n\n## Robin\n\nA red breast; sings at dawn.\n';

/** Bytes with a NUL, so the gateway returns them in base64. */
export const LOGO_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe]);

export interface ContractHome extends TestHome {
  /** A small text file (2 lines, 5 words, 24 bytes) for tools to read. */
  artifact: string;
}

/**
 * A test home under `base` (a fresh temp dir removed after the test when not given; a suite that
 * shares one home across tests passes its own) whose bundled root is the checkout's skills/, with
 * field-notes in the user root and a file to run tools on.
 */
export function contractHome(base: string = tempDir()): ContractHome {
  const home = testHome({ base, bundled: REPO_SKILLS });
  writeSkill(home.skills, 'field-notes', FIELD_NOTES_MD, { 'references/species.md': SPECIES_MD, 'assets/logo.bin': LOGO_BYTES });
  writeFiles(home.work, { 'artifact.txt': 'one two three\nfour five\n' });
  return { ...home, artifact: join(home.work, 'artifact.txt') };
}
