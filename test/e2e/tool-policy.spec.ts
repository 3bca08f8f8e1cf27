/** A tool's own policy on the skill page: badges where it differs from its skill's, for a SKILL.md `#### Policy` and a folder of gibb.eri.sh tool packs. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, screenshot, test } from './fixtures.js';

const POLICY_SKILL = `---
name: policy-demo
description: Lists files and touches them. Use to see a tool's own policy.
version: 1.0.0
---

### list_files

Lists the files of the working folder.

#### Parameters

None.

#### Command

\`\`\`bash
ls -la
\`\`\`

#### Policy

read_only: true
always_ask: true
timeout: 10

### touch_file

Creates a file.

#### Parameters

| Name | Type | Required | Description |
|---|---|---|---|
| path | string | yes | The file |

#### Command

\`\`\`bash
touch <<path>>
\`\`\`
`;

test("each tool shows where its own policy differs from its skill's", async ({ page, app }) => {
  app.writeSkill('policy-demo', POLICY_SKILL);
  await app.open(page, '#/skills/policy-demo');
  const list = page.getByRole('region', { name: 'list_files' });
  await expect(list.getByLabel(/Policy of list_files/)).toHaveText(/read-only\s*always asks\s*timeout 10 s/);
  await expect(page.getByRole('region', { name: 'touch_file' }).getByLabel(/Policy of touch_file/)).toHaveCount(0);
  await screenshot(page, 'tool-policy');
});

test('a folder of gibb.eri.sh tool packs is a skill whose tools carry their packs’ policies', async ({ page, app }) => {
  const dir = join(app.skills, 'media');
  mkdirSync(dir, { recursive: true });
  const pack = (name: string, policy: Record<string, unknown>) =>
    writeFileSync(
      join(dir, `${name}.tool.json`),
      JSON.stringify({
        name,
        description: `The ${name} pack.`,
        parameters: { url: { type: 'string', required: true } },
        command: { program: 'echo', args: ['{{url}}'] },
        policy,
      }),
    );
  pack('summarize_url', { read_only: true, requires_network: true, timeout_secs: 120 });
  pack('create_issue', { requires_network: true, confirm_before_run: true });
  await app.open(page, '#/skills/media');
  await expect(page.getByRole('region', { name: 'summarize_url' }).getByLabel(/Policy of summarize_url/)).toHaveText(/read-only/);
  await expect(page.getByRole('region', { name: 'create_issue' }).getByLabel(/Policy of create_issue/)).toHaveText(/always asks/);
  await screenshot(page, 'tool-packs');
});
