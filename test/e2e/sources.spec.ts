import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpSourceStatus } from '../../src-main/shared/served.js';
import { SCREENSHOTS, expect, test } from './fixtures.js';

const SERVER = fileURLToPath(new URL('../fixtures/processes/skills-server.mjs', import.meta.url));
const digest = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A scenario for the test's own MCP server: `notes` served honestly with `guide`, `liar` whose digest does not match. */
function scenario(file: string, guide: string): void {
  const notes = `---\nname: notes\ndescription: Keeps notes. Use when noting.\nreads: ["~/notes"]\n---\n# Notes\n`;
  const liar = `---\nname: liar\ndescription: Lies. Use never.\n---\n# Liar\n`;
  const entry = (name: string, files: Record<string, string>, lie = false) => ({
    uri: `skill://${name}/SKILL.md`,
    frontmatter: name === 'notes' ? { name, description: 'Keeps notes. Use when noting.', reads: ['~/notes'] } : { name, description: 'Lies. Use never.' },
    resources: Object.entries(files).map(([path, text]) => ({ uri: `skill://${name}/${path}`, digest: digest(lie ? `${text}!` : text) })),
  });
  const served = { notes: { 'SKILL.md': notes, 'references/guide.md': guide }, liar: { 'SKILL.md': liar } };
  writeFileSync(
    file,
    JSON.stringify({
      skills: [entry('notes', served.notes), entry('liar', served.liar, true)],
      files: Object.fromEntries(
        Object.entries(served).flatMap(([name, files]) => Object.entries(files).map(([path, text]) => [`skill://${name}/${path}`, { text }])),
      ),
    }),
  );
}

test('Settings › Sources adds an MCP server, approves a served skill as shown, asks again with what changed, and removes it', async ({ page, app }) => {
  const file = join(mkdtempSync(join(tmpdir(), 'skilltray-e2e-sources-')), 'scenario.json');
  scenario(file, '# Guide\n\nFirst words.\n');
  await app.open(page, '#/settings');
  const section = page.getByRole('region', { name: 'Sources' });
  await expect(section).toContainText('No MCP source is added.');
  const form = section.getByRole('form', { name: 'Add an MCP source' });
  await form.getByLabel('Name').fill('demo');
  await form.getByLabel('Command or URL').fill(`${process.execPath} ${SERVER} ${file}`);
  await form.getByRole('button', { name: 'Add source' }).click();

  const source = section.getByRole('listitem', { name: 'Source demo' });
  const notes = source.getByRole('listitem', { name: 'demo.notes' });
  await expect(notes).toContainText('waits for approval');
  await expect(source.getByRole('listitem', { name: 'demo.liar' })).toContainText('error[E866]');
  await notes.getByRole('button', { name: 'Review demo.notes' }).click();
  const review = notes.getByRole('group', { name: 'Review demo.notes' });
  await expect(review).toContainText('SKILL.md, references/guide.md');
  await expect(review).toContainText('reads: ["~/notes"]');
  await section.screenshot({ path: join(SCREENSHOTS, 'sources-review-1280.png') });
  await review.getByRole('button', { name: 'Approve demo.notes' }).click();
  await expect(notes.locator('.badge').first()).toHaveText('approved');
  await expect(notes).toContainText('what it declares is ignored');
  const listed = await app.api<{ skills: { name: string; root: { kind: string } }[] }>('list', {});
  expect(listed.body.ok && listed.body.value.skills.find((s) => s.name === 'demo.notes')?.root.kind).toBe('mcp');

  // One file changes on the server: checked again, the skill waits for approval, showing the change.
  scenario(file, '# Guide\n\nOther words.\n');
  await source.getByRole('button', { name: 'Check again' }).click();
  await expect(notes.locator('.badge').first()).toHaveText('changed: approve again');
  await notes.getByRole('button', { name: 'Review demo.notes' }).click();
  const diff = review.getByLabel('What changed in references/guide.md');
  await expect(diff).toContainText('-First words.');
  await expect(diff).toContainText('+Other words.');
  await section.screenshot({ path: join(SCREENSHOTS, 'sources-changed-1280.png') });

  await page.setViewportSize({ width: 390, height: 844 });
  await section.screenshot({ path: join(SCREENSHOTS, 'sources-changed-390.png') });
  const width = await section.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);
  await review.getByRole('button', { name: 'Approve demo.notes' }).click();
  await expect(notes.locator('.badge').first()).toHaveText('approved');

  await source.getByRole('button', { name: 'Remove demo' }).click();
  await source.getByRole('group', { name: 'Remove demo?' }).getByRole('button', { name: 'Remove demo' }).click();
  await expect(section).toContainText('No MCP source is added.');
  const after = await app.api<McpSourceStatus[]>('mcpSources', {});
  expect(after.body).toEqual({ ok: true, value: [] });
});
