/**
 * The skillc gateway and search commands (RFC-0002, RFC-0004, RFC-0003, RFC-0007) under `skilltray`.
 * Text output is the RFCs' form (search snippets with emphasis instead of markers); `--format json`
 * (or `--json`) prints the canonical JSON; the text forms are in cli/format/. One file per command.
 */
import type { Command } from '../command.js';
import { build } from './build.js';
import { open } from './open.js';
import { outline } from './outline.js';
import { search } from './search.js';
import { show } from './show.js';
import { sources } from './sources.js';
import { stats } from './stats.js';
import { sync } from './sync.js';

export const gatewayCommands: Command[] = [outline, show, open, sources, search, build, stats, sync];
