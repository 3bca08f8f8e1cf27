import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { isReadOnlyIntent } from '../../../src-main/core/agent/discover.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { SKILLS_DIR } from '../packs/bundled-packs.js';

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

interface Spec {
  description: string;
  role?: string;
  invocation?: string;
  targets?: string[];
  effect?: string;
  status?: string;
  tags?: string[];
  domain?: string[];
  modes?: string[];
  tool?: string;
}

/** A classified skill; with `tool`, one tool whose Command prints its target_ref. */
function classified(t: TestHome, name: string, spec: Spec, root: 'bundled' | 'skills' = 'bundled'): void {
  const c = [
    spec.role && `    role: ${spec.role}`,
    spec.invocation && `    invocation: ${spec.invocation}`,
    spec.targets && `    attach_targets: [${spec.targets.join(', ')}]`,
    `    effect_mode: ${spec.effect ?? 'read_only'}`,
    `    status: ${spec.status ?? 'stable'}`,
    `    tags: [${(spec.tags ?? []).join(', ')}]`,
    `    domain: [${(spec.domain ?? ['general']).join(', ')}]`,
  ].filter(Boolean);
  const fm = `name: ${name}\ndescription: ${spec.description}\nversion: 1.0.0\nread_only: true\nmodes: [${(spec.modes ?? ['Global']).join(', ')}]\nmetadata:\n  classification:\n${c.join('\n')}`;
  const body = spec.tool
    ? `\n### ${spec.tool}\n\nPrints the target.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| target_ref | string | yes | the target |\n\n#### Command\n\n\`\`\`\n${process.execPath} -e process.stdout.write(process.argv[1]) <<target_ref>>\n\`\`\`\n`
    : '';
  writeSkill(root === 'bundled' ? t.bundled : t.skills, name, skillMd(fm, body));
}

/** A core over the test home, its bundled skills sealed into a manifest as the build would ship them. */
function open(t: TestHome): SkilltrayCore {
  t.sealBundled();
  const core = new SkilltrayCore(t.config());
  cores.push(core);
  return core;
}

const ids = (results: { skill_id: string }[]) => results.map((r) => r.skill_id);

describe('discover (ADR-001)', () => {
  it('rule 1: a procedure ranks over a utility that matches as well, unless utilities are asked for', () => {
    const t = testHome();
    classified(t, 'backup-tool', { description: 'Copy files to the backup disk.', role: 'utility', tags: ['backup'] });
    classified(t, 'backup-plan', { description: 'Plan and run a full backup of files end to end.', role: 'procedure', tags: ['backup'] });
    const core = open(t);
    expect(ids(core.agent.discover('backup my files').results)).toEqual(['backup-plan', 'backup-tool']);
    expect(ids(core.agent.discover('backup my files', { roleFilter: 'utility' }).results)).toEqual(['backup-tool']);
  });

  it('rule 1: a procedure without tools does not beat the utility whose tool does the job, unless the intent names it', () => {
    const t = testHome();
    classified(t, 'vcs', { description: 'Read a repository, its history and release notes.', role: 'utility', tags: ['vcs', 'release'], tool: 'vcs_status' });
    classified(t, 'release-notes', { description: 'Write release notes from the vcs status and history.', role: 'procedure', tags: ['vcs'] });
    const core = open(t);
    const status = core.agent.discover('show me the vcs status').results;
    expect(ids(status)).toEqual(['vcs', 'release-notes']);
    expect(status[1]?.reason).toContain('a guide to the job, after the tool that does it');
    // The utility matches these words as well as the procedure does; the intent names the procedure.
    expect(ids(core.agent.discover('release notes from the vcs status').results)).toEqual(['release-notes', 'vcs']);
  });

  it('ranks the git utility over the commit-message prompt for "show me the git status" in the bundled packs', () => {
    const core = open(testHome({ bundled: SKILLS_DIR }));
    expect(core.agent.discover('show me the git status').results[0]).toMatchObject({ skill_id: 'git', reason: expect.stringContaining('tool git_status') });
    expect(core.agent.discover('write a commit message for my staged changes').results[0]?.skill_id).toBe('commit-message');
  });

  it('scores from 0 to 1: relevance is the share of the intent matched with the strength beside it, the score weighs it by the rules', () => {
    const t = testHome();
    classified(t, 'tides', { description: 'Tables for any port.', role: 'procedure', tags: ['tide', 'harbour'] });
    classified(t, 'almanac', { description: 'Sunrise, moon phases and a tide summary.', role: 'utility', status: 'experimental' });
    const [tides, almanac] = open(t).agent.discover('tide harbour').results;
    // Every word in a name or tag, and the text that holds them most: 1.
    expect(tides).toMatchObject({ skill_id: 'tides', relevance: 1, score: 1 });
    // 'tide' is held by both skills, by one in its name and a tag (1) and by the other in its description (0.8):
    // rarity ln(1 + 2/1.8); this one finds it in the description (0.8 of a name or tag hit).
    // 'harbour' (held by one, rarity ln(1 + 2/1)) not at all.
    const share = (Math.log(1 + 2 / 1.8) * 0.8) / (Math.log(1 + 2 / 1.8) + Math.log(3));
    // Beside the share (weight 1), its strength, a part of the strongest text's (weight 0.5 on the best share's scale).
    expect(almanac!.relevance).toBeGreaterThan(share / 1.5);
    expect(almanac!.relevance).toBeLessThan((share + 0.5) / 1.5);
    // Then utility ×0.74, experimental ×0.9, no tag ×0.95.
    expect(almanac!.score).toBeCloseTo(almanac!.relevance * 0.74 * 0.9 * 0.95, 2);
    // Why, in words a person reads: what it mentions and what kind of skill it is; the numbers are the fields above.
    expect(almanac?.reason).toBe('mentions “tide”; experimental, a building block');
    expect(tides?.reason).toBe('mentions “tide” and “harbour”; stable, does the whole job; tagged “tide” and “harbour”');
  });

  it('the strength: a skill about the rare word of the intent goes before one whose long description passes over its common words', () => {
    const t = testHome();
    const skill = (name: string, description: string, body = ''): void => void writeSkill(t.skills, name, skillMd({ name, description }, body));
    skill(
      'repo-rules',
      'Before you stop, read how people here work: pushing code to the repo, branch names, commit messages, reviews and releases, the labels of issues and who merges.',
    );
    skill(
      'secret-guard',
      'Keep passwords out of what you push.',
      '## Passwords\n\nFinds passwords in staged changes before pushing. Passwords in config files, passwords in scripts, passwords in notebooks: each is reported with its file and line.\n\n## When passwords are found\n\nRemove the passwords, rotate them, and commit again.',
    );
    // The intent's other words are common: other skills of the same team say them too.
    skill('ci-watch', 'Tell people when a build on the repo goes red, and stop the deploy.');
    skill('release-train', 'Cut a release: tag the repo, write the notes, tell people.');
    skill('branch-tidy', 'Delete merged branches from the repo after pushing.');
    skill('review-buddy', 'Ask people for a review and stop merging until they approve.');
    skill('mirror', 'Keep a mirror of the repo by pushing each change to a second remote.');
    skill('changelog', 'Write the changelog people read from the commits of the repo.');
    const results = open(t).agent.discover('stop people pushing passwords into the repo').results;
    // repo-rules holds more of the intent's words (stop, people, pushing, repo) and so the larger share; secret-guard is about passwords.
    expect(ids(results).slice(0, 2)).toEqual(['secret-guard', 'repo-rules']);
    expect(results[1]?.reason).toBe('mentions “stop”, “people”, “pushing” and “repo”; not classified');
  });

  it('rule 2: stable over experimental over the rest', () => {
    const t = testHome();
    classified(t, 'notes-a', { description: 'Take meeting notes.', role: 'utility', status: 'experimental' });
    classified(t, 'notes-b', { description: 'Take meeting notes.', role: 'utility', status: 'deprecated' });
    classified(t, 'notes-c', { description: 'Take meeting notes.', role: 'utility', status: 'stable' });
    expect(ids(open(t).agent.discover('take meeting notes').results)).toEqual(['notes-c', 'notes-a', 'notes-b']);
  });

  it('rule 3: an exact tag match over a name match as relevant', () => {
    const t = testHome();
    // The same words, as many and as long, the word once: one in its name, the other in a tag.
    classified(t, 'weather-report', { description: 'Tomorrow at a glance.', role: 'utility' });
    classified(t, 'forecast', { description: 'Tomorrow at a glance.', role: 'utility', tags: ['weather'] });
    const results = open(t).agent.discover('weather').results;
    expect(results[0]?.relevance).toBe(results[1]?.relevance);
    expect(ids(results)).toEqual(['forecast', 'weather-report']);
    expect(results[0]?.reason).toContain('tagged “weather”');
  });

  it('rule 4: read-only skills first for a read-only intent', () => {
    const t = testHome();
    // Equal in every other rule and in relevance: without rule 4 the name would decide (a-mail first).
    classified(t, 'a-mail', { description: 'Email inbox messages.', role: 'utility', effect: 'control_signal', tags: ['email'] });
    classified(t, 'b-mail', { description: 'Email inbox messages.', role: 'utility', effect: 'read_only', tags: ['email'] });
    expect(isReadOnlyIntent('show my email')).toBe(true);
    expect(isReadOnlyIntent('send an email')).toBe(false);
    const core = open(t);
    expect(ids(core.agent.discover('show my email inbox').results)).toEqual(['b-mail', 'a-mail']);
    expect(ids(core.agent.discover('send email to the inbox').results)).toEqual(['a-mail', 'b-mail']);
  });

  it('never recommends a sidecar for a direct call; role_filter sidecar finds it for attach', () => {
    const t = testHome();
    classified(t, 'audit-log', { description: 'Audit every run of a deploy.', role: 'sidecar', invocation: 'attach', targets: ['run'] });
    classified(t, 'deploy', { description: 'Deploy the service.', role: 'procedure' });
    const core = open(t);
    expect(ids(core.agent.discover('audit the deploy run').results)).toEqual(['deploy']);
    expect(ids(core.agent.discover('audit the deploy run', { roleFilter: 'sidecar' }).results)).toEqual(['audit-log']);
  });

  it('filters by domain, leaves out skills not offered in the mode; scores descend; an intent of only common words finds nothing', () => {
    const t = testHome();
    classified(t, 'dev-search', { description: 'Search code.', role: 'utility', domain: ['dev'] });
    classified(t, 'doc-search', { description: 'Search documents.', role: 'utility', domain: ['docs'] });
    classified(t, 'meeting-search', { description: 'Search meeting transcripts.', role: 'utility', modes: ['Meeting'] });
    const core = open(t);
    const all = core.agent.discover('search').results;
    expect(ids(all).sort()).toEqual(['dev-search', 'doc-search']);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    expect(ids(core.agent.discover('search', { domain: 'docs' }).results)).toEqual(['doc-search']);
    core.preferences.setMode('Meeting');
    expect(ids(core.agent.discover('search').results)).toEqual(['meeting-search']);
    expect(core.agent.discover('the of and').results).toEqual([]);
  });

  it('returns a skill that loaded with errors but can be read, marked, without tools, after a working one as relevant (#40)', () => {
    const t = testHome();
    classified(t, 'good-search', { description: 'Search everything.', role: 'procedure', tool: 'search_all' });
    // E407 (name differs from the folder) and E417 (a field of the wrong kind): the prose is intact.
    const tool = '\n### search_all\n\nSearches.\n\n#### Command\n\n```\necho hi\n```\n';
    writeSkill(t.skills, 'renamed-search', skillMd({ name: 'other-name', description: 'Search everything.', read_only: 'yes' }, tool));
    // E401: no frontmatter, nothing to read.
    writeSkill(t.skills, 'no-frontmatter', '# Search everything\n\nSearch everything.\n');
    const results = open(t).agent.discover('search everything').results;
    expect(ids(results)).toEqual(['good-search', 'renamed-search']);
    expect(results[0]).toMatchObject({ errors: [], tools: ['search_all'] });
    expect(results[1]).toMatchObject({ errors: ['E407', 'E417'], tools: [] });
    expect(results[1]?.reason).toContain('loaded with errors (E407, E417): read it, its tools do not run');
  });

  it('does not favour classified skills: one that declares nothing is ranked by relevance alone (#40)', () => {
    const t = testHome();
    classified(t, 'pentest-guide', { description: 'Run a penetration test of a web shell upload.', role: 'procedure', tags: ['shell'] });
    writeSkill(
      t.skills,
      'web-shell-upload',
      skillMd({ name: 'web-shell-upload', description: 'Penetration test of file upload forms for web shell uploads.' }),
    );
    const results = open(t).agent.discover('penetration test of upload forms').results;
    expect(ids(results)).toEqual(['web-shell-upload', 'pentest-guide']);
    // An unclassified skill's score is its relevance: no rule multiplies it.
    expect(results[0]?.score).toBe(results[0]?.relevance);
  });

  it('meets words written another way: abbreviations, long forms, compounds, a word inside an unspaced run (#40)', () => {
    const t = testHome();
    const plain = (name: string, description: string) => writeSkill(t.skills, name, skillMd({ name, description }));
    plain('pg-tuning', 'Tune PostgreSQL queries and indexes.');
    plain('browser-tests', 'Write end-to-end tests that drive a real browser.');
    plain('cluster-admin', 'Operate Kubernetes clusters.');
    plain('web-ui', 'Build a front end with reusable components.');
    plain('todo-cn', '管理滴答清单的任务和项目。');
    plain('notes-cn', '把会议记录整理成笔记。');
    const core = open(t);
    const first = (intent: string) => core.agent.discover(intent).results[0]?.skill_id;
    expect(first('speed up my postgres database')).toBe('pg-tuning');
    expect(first('e2e tests for the checkout')).toBe('browser-tests');
    expect(first('restart pods on k8s')).toBe('cluster-admin');
    expect(first('a frontend for the shop')).toBe('web-ui');
    expect(first('在滴答清单里新建一个任务')).toBe('todo-cn');
    expect(core.agent.discover('在滴答清单里新建一个任务').results[0]?.reason).toContain('“滴答清单”');
  });

  it('at an equal share of the intent, the skill whose text holds the words more strongly goes first (#40)', () => {
    const t = testHome();
    const plain = (name: string, description: string) => writeSkill(t.skills, name, skillMd({ name, description }));
    // Both hold "archive" once as a field (their description): the same share. The second is about nothing else.
    plain('a-copier', 'Archive your files to the disk, then check them.');
    plain('b-keeper', 'Archive, archive and archive your files.');
    const results = open(t).agent.discover('archive').results;
    expect(ids(results)).toEqual(['b-keeper', 'a-copier']);
    expect(results[0]!.relevance).toBeGreaterThan(results[1]!.relevance);
  });

  it('many equally relevant skills: the first ones by name, as many as asked for', () => {
    const t = testHome();
    const names = Array.from({ length: 30 }, (_, i) => `copy-${String(i).padStart(2, '0')}`);
    for (const name of [...names].reverse()) writeSkill(t.skills, name, skillMd({ name, description: 'Copy files to a backup disk.' }));
    const results = open(t).agent.discover('backup disk', { limit: 7 }).results;
    expect(ids(results)).toEqual(names.slice(0, 7));
  });

  it('a pasted page finds the skill its rarest words name (#40)', () => {
    const t = testHome({ bundled: SKILLS_DIR });
    writeSkill(t.skills, 'quokka-census', skillMd({ name: 'quokka-census', description: 'Count the quokkas on Rottnest island.' }));
    const core = open(t);
    const page = `${'please read the files and the notes and tell me what the status of the work is, '.repeat(20)}then count the quokkas on rottnest`;
    expect(page.length).toBeGreaterThan(1500);
    expect(core.agent.discover(page).results[0]?.skill_id).toBe('quokka-census');
  });

  it('any intent, hostile or not, gets a well-formed answer: scores within relevance within 0–1, best first (property)', () => {
    const t = testHome({ bundled: SKILLS_DIR });
    writeSkill(t.skills, 'notes-cn', skillMd({ name: 'notes-cn', description: '把会议记录整理成笔记。Meeting notes, end-to-end.' }));
    const core = new SkilltrayCore(t.config());
    cores.push(core);
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '"',
        '""',
        '*',
        'NEAR(a b)',
        '{body} :',
        'AND',
        'OR',
        'NOT',
        '\0',
        '^',
        'end to end',
        'k8s',
        '会议记录',
        'git status',
        '/var/log',
        'js/ts',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.constantFrom(undefined, 'sidecar', 'utility', 'procedure'), (pieces, role) => {
        const answer = core.agent.discover(pieces.join(' '), role === undefined ? {} : { roleFilter: role });
        for (const list of [answer.results, answer.also]) {
          for (const [i, r] of list.entries()) {
            expect(r.relevance).toBeGreaterThan(0);
            expect(r.relevance).toBeLessThanOrEqual(1);
            expect(r.score).toBeLessThanOrEqual(r.relevance);
            if (i > 0) expect(r.score).toBeLessThanOrEqual(list[i - 1]!.score);
          }
        }
        for (const r of answer.results) expect(role === undefined ? r.role !== 'sidecar' : r.role === role).toBe(true);
        for (const r of answer.also) expect(r.score).toBeGreaterThan(answer.results[0]?.score ?? 0);
      }),
      // The case fast-check once found: a utility's also-match that only rounded level with the first result.
      { numRuns: 150, examples: [[['end to end', '3', 'v', 'X'], 'utility']] },
    );
  });

  it('names the best match of a role the call left out: also, on a sidecar, and the reverse (#39.7)', () => {
    const t = testHome();
    classified(t, 'checksum', {
      description: 'Verify the sha256 checksum of a release tarball.',
      role: 'sidecar',
      invocation: 'attach',
      targets: ['artifact'],
    });
    classified(t, 'release-notes', { description: 'Write release notes.', role: 'procedure' });
    const core = open(t);
    const direct = core.agent.discover('verify the sha256 of my release tarball');
    expect(ids(direct.results)).toEqual(['release-notes']);
    expect(ids(direct.also)).toEqual(['checksum']);
    expect(direct.also[0]).toMatchObject({ role: 'sidecar' });
    expect(direct.also[0]!.score).toBeGreaterThan(direct.results[0]!.score);
    const sidecars = core.agent.discover('verify the sha256 of my release tarball', { roleFilter: 'sidecar' });
    expect(ids(sidecars.results)).toEqual(['checksum']);
    expect(sidecars.also).toEqual([]);
    // Nothing better elsewhere: also stays empty.
    expect(core.agent.discover('write release notes').also).toEqual([]);
  });

  it('reranks after a skill changes on disk', () => {
    const t = testHome();
    classified(t, 'alpha', { description: 'Translate text.', role: 'utility' });
    const core = open(t);
    expect(ids(core.agent.discover('compress images').results)).toEqual([]);
    writeFileSync(join(t.bundled, 'alpha', 'notes.md'), 'x');
    classified(t, 'alpha', { description: 'Compress images losslessly.', role: 'utility' });
    core.registry.reload('alpha');
    expect(ids(core.agent.discover('compress images').results)).toEqual(['alpha']);
  });
});

describe('attach (ADR-001)', () => {
  function setup() {
    const t = testHome();
    classified(t, 'watcher', {
      description: 'Watch a run.',
      role: 'sidecar',
      invocation: 'attach',
      targets: ['run', 'output'],
      effect: 'enrich',
      tool: 'observe',
    });
    classified(t, 'direct-only', { description: 'Runs directly.', role: 'utility', invocation: 'direct', tool: 'go' });
    writeSkill(
      t.bundled,
      'broken',
      skillMd({ name: 'broken', description: 'x', version: '1.0.0', metadata: { classification: { role: 'sidecar', invocation: 'direct' } } }),
    );
    return { t, core: open(t) };
  }

  it('runs the tool against the target and says when it attached', async () => {
    const { core } = setup();
    const result = await core.agent.attach(
      { skillId: 'watcher', targetType: 'run', targetRef: 'run-42', inputs: {}, surface: 'mcp', traceId: 'trace-1' },
      { approval: { kind: 'none' } },
    );
    expect(result).toMatchObject({ skill_id: 'watcher', target_type: 'run', target_ref: 'run-42', execution: { traceId: 'trace-1', tool: 'observe' } });
    expect(result.execution.result.stdout).toBe('run-42');
    expect(Date.parse(result.attached_at)).not.toBeNaN();
  });

  it.each([
    [{ skillId: 'nothing', targetType: 'run' }, 'skill_not_found'],
    [{ skillId: 'broken', targetType: 'run' }, 'skill_not_loadable'],
    [{ skillId: 'direct-only', targetType: 'run' }, 'not_attachable'],
    [{ skillId: 'watcher', targetType: 'transcript' }, 'target_not_allowed'],
    [{ skillId: 'watcher', targetType: 'run', tool: 'nope' }, 'tool_not_found'],
  ] as const)('%j is refused before anything runs: E801 %s', async (request, reason) => {
    const { core } = setup();
    await expect(core.agent.attach({ targetRef: 'x', inputs: {}, surface: 'http', ...request }, { approval: { kind: 'none' } })).rejects.toMatchObject({
      code: 'E801',
      kind: 'attach_validation',
      details: expect.objectContaining({ reason }),
    });
    expect(core.runs.history()).toEqual([]);
  });
});
