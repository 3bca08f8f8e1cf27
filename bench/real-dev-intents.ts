/**
 * Labelled intents over the development corpus (`/work/shared/corpora/real-dev.tar.gz`: 1,878 skills
 * from three MIT-licensed public repositories). Each was written after reading the target skill, as
 * someone who does not know its name would ask, in their own words rather than the skill's; `also`
 * lists the skills that fit the request just as well, where a reader found any.
 *
 * DEV_INTENTS may be tuned on (the misses are printed). DEV_HELD_OUT was written with them, before
 * any tuning, and never tuned on: only its counts are printed. Tune for skills in general, not for
 * these files: a corpus of other owners is measured elsewhere.
 */
export interface DevIntent {
  intent: string;
  skill: string;
  also?: string[];
}

export const DEV_INTENTS: DevIntent[] = [
  // sickn33/antigravity-awesome-skills
  { intent: 'save my work and send it up to the remote', skill: 'git-pushing', also: ['git-commit'] },
  { intent: 'my container image is way too big, help me slim it down', skill: 'docker-expert', also: ['multi-stage-dockerfile'] },
  { intent: 'design the k8s platform for our services with gitops', skill: 'kubernetes-architect' },
  { intent: 'can my login form be broken with sqli payloads', skill: 'sql-injection-testing', also: ['sqlmap-database-pentesting'] },
  { intent: 'dig through a pcap to see why connections keep dropping', skill: 'wireshark-analysis' },
  { intent: 'I have a low-privilege shell on a linux box, how do I become root', skill: 'linux-privilege-escalation' },
  { intent: 'a bunch of tests went red after my change, get them green again', skill: 'test-fixing' },
  { intent: 'draw the login flow as a text diagram I can paste into markdown', skill: 'mermaid-expert' },
  { intent: 'write better page titles and snippets for google results', skill: 'seo-meta-optimizer' },
  {
    intent: 'project our startup revenue and burn for the next three years',
    skill: 'startup-financial-modeling',
    also: ['startup-business-analyst-financial-projections'],
  },
  {
    intent: 'how much money could the market for our product be worth',
    skill: 'market-sizing-analysis',
    also: ['startup-business-analyst-market-opportunity'],
  },
  { intent: 'draft a privacy policy and terms of use for my app', skill: 'legal-advisor' },
  { intent: 'run background jobs from a redis-backed queue in node', skill: 'bullmq-specialist' },
  { intent: 'text users a one-time code when they sign in', skill: 'twilio-communications' },
  { intent: 'build a bot people can chat with on telegram', skill: 'telegram-bot-builder' },
  { intent: 'make a bot for our discord server with slash commands', skill: 'discord-bot-architect' },
  { intent: 'my downloads folder is chaos, tidy it up and find duplicate files', skill: 'file-organizer' },
  { intent: 'put my next.js site live on vercel', skill: 'vercel-deployment' },
  { intent: 'my chatbot forgets what the user said earlier, give it long-term recall', skill: 'conversation-memory', also: ['agent-memory-systems'] },
  { intent: 'the model keeps running out of tokens, how do I trim the chat history', skill: 'context-window-management' },
  { intent: 'translate the app into other languages and find strings that are hard-coded', skill: 'i18n-localization' },
  { intent: 'plan a split test between two versions of the signup page', skill: 'ab-test-setup' },
  { intent: 'reusable iac building blocks for aws, azure and gcp', skill: 'terraform-module-library' },
  { intent: 'scaffold a new ts project with good tooling', skill: 'javascript-typescript-typescript-scaffold' },
  { intent: 'get my dev env ready on a new laptop', skill: 'environment-setup-guide' },
  { intent: 'check our app config files are valid before we ship', skill: 'deployment-validation-config-validate' },
  { intent: 'test whether our auth and session handling can be bypassed', skill: 'broken-authentication' },
  { intent: 'queue and retry background work in a serverless app without running workers', skill: 'inngest', also: ['trigger-dev', 'upstash-qstash'] },
  {
    intent: 'scan my npm deps for known vulnerabilities and bad licenses',
    skill: 'dependency-management-deps-audit',
    also: ['codebase-cleanup-deps-audit', 'security-scanning-security-dependencies'],
  },
  { intent: 'write the investor-ready business case document', skill: 'startup-business-analyst-business-case' },
  // github/awesome-copilot
  { intent: 'turn this pdf into text you can read and summarise', skill: 'convert-pdf-to-md' },
  { intent: 'read the numbers in my xlsx spreadsheet', skill: 'convert-excel-to-md' },
  { intent: 'combine several pdfs into one and rotate a page', skill: 'pdftk-server' },
  { intent: 'shrink a batch of photos and turn them into jpg', skill: 'image-manipulation-image-magick' },
  { intent: 'write a readme for this project', skill: 'create-readme', also: ['readme-blueprint-generator'] },
  { intent: 'put an emoji in front of my commit message', skill: 'gitmoji' },
  { intent: 'turn my notes from the meeting into minutes with decisions and owners', skill: 'meeting-minutes' },
  { intent: 'write up what went wrong after yesterday’s outage, without blaming anyone', skill: 'incident-postmortem' },
  { intent: 'have github open pull requests to bump my dependencies automatically', skill: 'dependabot' },
  { intent: 'stop people from pushing api keys and passwords into our repo', skill: 'secret-scanning' },
  { intent: 'our ci bill is too high, make the workflows use fewer minutes', skill: 'github-actions-efficiency' },
  { intent: 'which lines of my python code are not covered by tests', skill: 'pytest-coverage' },
  { intent: 'point the A record of the domain I bought on namecheap at a new server', skill: 'namecheap' },
  { intent: 'sketch a whiteboard-style hand drawn diagram of our system', skill: 'excalidraw-diagram-generator' },
  { intent: 'export my markdown notes to a word document', skill: 'md-to-docx' },
  { intent: 'help me reply to my manager by email in my usual tone', skill: 'email-drafter' },
  { intent: 'write a linkedin post announcing our launch', skill: 'linkedin-post-formatter' },
  { intent: 'do the rows match between the source and target sql server tables after the etl', skill: 'sql-server-table-reconciliation' },
  { intent: 'convert times between time zones correctly in c#', skill: 'dotnet-timezone' },
  { intent: 'randomize the order of the records in a json file', skill: 'shuffle-json-data' },
  { intent: 'record an animated gif of the new feature for the pull request', skill: 'screen-recording' },
  { intent: 'tailor my cv to this job posting and write a cover letter', skill: 'technical-job-search' },
  { intent: 'help me study for the exam from my lecture notes', skill: 'exam-ready' },
  { intent: 'pacman upgrade broke my system and it will not boot', skill: 'arch-linux-triage' },
  { intent: 'tune slow postgres queries and indexes', skill: 'postgresql-optimization', also: ['database-optimizer', 'sql-optimization'] },
  { intent: 'write an end to end browser test for the signup flow', skill: 'playwright-generate-test' },
  { intent: 'make a diagram of my db tables from the ef core entities', skill: 'efcore-d2-db-diagram' },
  { intent: 'get this repo ready for coding agents with instructions files', skill: 'ai-ready', also: ['create-agentsmd'] },
  // oomol-lab/skills
  { intent: 'make a short link for this long url', skill: 'oo-bitly', also: ['oo-shorten-rest'] },
  { intent: 'find research papers about diffusion models', skill: 'oo-arxiv' },
  { intent: 'was my email address leaked in a breach', skill: 'oo-haveibeenpwned' },
  { intent: 'add a row to my google spreadsheet', skill: 'oo-googlesheets' },
  { intent: 'open a ticket in our atlassian issue tracker', skill: 'oo-jira' },
  { intent: '在滴答清单里新建一个任务', skill: 'oo-dida365' },
  { intent: 'which public holidays does germany have this year', skill: 'oo-calendarific' },
  { intent: 'look up what a word means in the dictionary', skill: 'oo-collegiate' },
  { intent: 'which airports and airlines fly to lisbon', skill: 'oo-aviationstack' },
  { intent: 'how polluted is the air in delhi right now', skill: 'oo-iqair-airvisual', also: ['oo-ambee'] },
  { intent: 'turn off the lights in my smart home', skill: 'oo-home-assistant' },
  { intent: 'what are the top stories on hacker news today', skill: 'oo-hackernews' },
  { intent: 'has this ip address been reported for abuse', skill: 'oo-abuseipdb' },
  { intent: 'turn a street address into map coordinates in china', skill: 'oo-amap' },
];

export const DEV_HELD_OUT: DevIntent[] = [
  { intent: 'push my commits to github with a sensible message', skill: 'git-pushing', also: ['git-commit'] },
  { intent: 'find xss holes in our web pages', skill: 'xss-html-injection', also: ['frontend-mobile-security-xss-scan'] },
  { intent: 'brute force weak ssh logins on a server we are allowed to test', skill: 'ssh-penetration-testing' },
  { intent: 'draft the terms and a cookie notice for our website', skill: 'legal-advisor' },
  { intent: 'speed up my website, it loads slowly on phones', skill: 'web-performance-optimization' },
  { intent: 'split a pdf into separate pages', skill: 'pdftk-server' },
  { intent: 'summarise what happened in our outage for the team', skill: 'incident-postmortem' },
  { intent: 'make a web page out of this markdown file', skill: 'markdown-to-html' },
  { intent: 'weather forecast for tomorrow in paris', skill: 'oo-accuweather', also: ['oo-openweather-api', 'oo-weatherapi', 'oo-weatherbit'] },
  { intent: 'upload a file to my amazon bucket', skill: 'oo-aws-s3' },
  { intent: 'stock price history for apple', skill: 'oo-alpha-vantage', also: ['oo-marketstack'] },
  { intent: 'list what I did this year for my promotion packet', skill: 'brag-sheet', also: ['performance-review-writer'] },
  { intent: 'write unit tests for a vue component with pinia', skill: 'unit-test-vue-pinia' },
  { intent: 'fix broken packages on my debian server', skill: 'debian-linux-triage' },
];
