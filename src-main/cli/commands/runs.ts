/** Running tools from the terminal, and the records and settings around runs: one file per command. */
import type { Command } from '../command.js';
import { historyCommand } from './history.js';
import { mode } from './mode.js';
import { pauseCommand } from './pause.js';
import { remembered } from './remembered.js';
import { resolve } from './resolve.js';
import { rules } from './rules.js';
import { run } from './run.js';

export const runCommands: Command[] = [run, resolve, historyCommand, rules, remembered, mode, pauseCommand('pause'), pauseCommand('resume')];
