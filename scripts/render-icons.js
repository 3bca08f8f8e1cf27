#!/usr/bin/env node
// Renders build/icon.svg and build/tray/tray.svg to the PNGs electron-builder and the tray use, with
// Debian's Chromium (a maintainer's tool: the PNGs are committed; run it after editing an SVG).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const build = new URL('../build/', import.meta.url).pathname;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();

async function render(svgFile, out, size, color) {
  const svg = readFileSync(join(build, svgFile), 'utf8');
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent;color:${color}">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  await page.screenshot({ path: join(build, out), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

await render('icon.svg', 'icon.png', 1024, 'white');
await render('icon.svg', 'tray/icon.png', 256, 'white');
await render('tray/tray.svg', 'tray/tray.png', 32, '#f2f2f2');
await render('tray/tray.svg', 'tray/tray@2x.png', 64, '#f2f2f2');
// macOS template images: black with alpha; the menu bar tints them.
await render('tray/tray.svg', 'tray/trayTemplate.png', 16, '#000000');
await render('tray/tray.svg', 'tray/trayTemplate@2x.png', 32, '#000000');
await browser.close();
