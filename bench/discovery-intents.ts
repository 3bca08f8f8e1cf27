/**
 * Labelled intents over the bundled packs: what a person might ask, and the skill that should
 * answer it. `npm run bench` reports discover()'s precision@1 and @3 over this set; the ranking may
 * be tuned on it. Its held-out twin (discovery-heldout.ts) must never be.
 */
export interface LabelledIntent {
  intent: string;
  skill: string;
  /** For sidecars, the role_filter an agent passes when it looks for something to attach. */
  roleFilter?: 'procedure' | 'utility' | 'sidecar';
}

export const LABELLED_INTENTS: LabelledIntent[] = [
  // git
  { intent: 'what changed in my working tree', skill: 'git' },
  { intent: 'show the recent commits of this repository', skill: 'git' },
  { intent: 'which branch am I on', skill: 'git' },
  { intent: 'list all branches including remote ones', skill: 'git' },
  { intent: 'show me the diff of staged changes', skill: 'git' },
  { intent: 'who changed this file last in the history', skill: 'git' },
  { intent: 'show what the last commit did', skill: 'git' },
  // files
  { intent: 'list the files in this folder', skill: 'files' },
  { intent: 'show the first lines of a log file', skill: 'files' },
  { intent: 'count the lines and words in a document', skill: 'files' },
  { intent: 'what kind of file is this', skill: 'files' },
  { intent: 'find files named report.pdf', skill: 'files' },
  { intent: 'show hidden files in my home directory', skill: 'files' },
  { intent: 'search for every markdown file under docs', skill: 'files' },
  // system
  { intent: 'how long has this machine been up', skill: 'system' },
  { intent: 'am I running out of disk space', skill: 'system' },
  { intent: 'how much memory is free', skill: 'system' },
  { intent: 'which processes use the most cpu', skill: 'system' },
  { intent: 'what is listening on port 8080', skill: 'system' },
  { intent: 'why is my laptop slow', skill: 'system' },
  { intent: 'show the load average', skill: 'system' },
  { intent: 'which program holds port 3000', skill: 'system' },
  // network
  { intent: 'resolve the address of example.com', skill: 'network' },
  { intent: 'is my internet connection working', skill: 'network' },
  { intent: 'ping the router', skill: 'network' },
  { intent: 'what IP address does github.com have', skill: 'network' },
  { intent: 'check the latency to 1.1.1.1', skill: 'network' },
  { intent: 'does this host name resolve', skill: 'network' },
  // commit-message
  { intent: 'write a commit message for my staged changes', skill: 'commit-message' },
  { intent: 'draft a conventional commit message', skill: 'commit-message' },
  { intent: 'help me describe this change for git', skill: 'commit-message' },
  { intent: 'suggest a good commit summary line', skill: 'commit-message' },
  // skill-authoring
  { intent: 'how do I write a SKILL.md', skill: 'skill-authoring' },
  { intent: 'create a new skill with a tool', skill: 'skill-authoring' },
  { intent: 'explain the frontmatter fields of a skill', skill: 'skill-authoring' },
  { intent: 'why does skilltray check warn about my command template', skill: 'skill-authoring' },
  { intent: 'how should I mark a tool read only', skill: 'skill-authoring' },
  // artifact-checksum (a sidecar: found only when an agent looks for something to attach)
  { intent: 'fingerprint the build artifact', skill: 'artifact-checksum', roleFilter: 'sidecar' },
  { intent: 'verify the integrity of an output file with sha256', skill: 'artifact-checksum', roleFilter: 'sidecar' },
  { intent: 'record a checksum of the release tarball', skill: 'artifact-checksum', roleFilter: 'sidecar' },
  { intent: 'attach an integrity check to this artifact', skill: 'artifact-checksum', roleFilter: 'sidecar' },
  // Added with the held-out set (one of each pair here, the other there), before any tuning.
  { intent: 'show me the git status', skill: 'git' },
  { intent: 'show the log of the last ten commits', skill: 'git' },
  { intent: 'compare my changes with the last commit', skill: 'git' },
  { intent: 'what did I stage for the next commit', skill: 'git' },
  { intent: "what's inside the downloads folder", skill: 'files' },
  { intent: 'how many lines does main.py have', skill: 'files' },
  { intent: 'where is my config.yaml', skill: 'files' },
  { intent: 'find all png images in this project', skill: 'files' },
  { intent: 'how full is my hard drive', skill: 'system' },
  { intent: "what's eating my cpu", skill: 'system' },
  { intent: 'how busy is the computer right now', skill: 'system' },
  { intent: 'when was the last reboot', skill: 'system' },
  { intent: 'can I reach google.com', skill: 'network' },
  { intent: 'look up the DNS record for my domain', skill: 'network' },
  { intent: 'measure round trip time to a host', skill: 'network' },
  { intent: 'write me a commit message', skill: 'commit-message' },
  { intent: 'improve this commit message', skill: 'commit-message' },
  { intent: 'how do I add a parameter to a skill tool', skill: 'skill-authoring' },
  { intent: 'review my skill file for mistakes', skill: 'skill-authoring' },
  { intent: 'compute a sha256 of the output file', skill: 'artifact-checksum', roleFilter: 'sidecar' },
  // A third batch, written after the held-out set had been scored once, to tune on more than one phrasing per job.
  { intent: 'has anything changed since my last commit', skill: 'git' },
  { intent: "show me what's staged", skill: 'git' },
  { intent: "what's the hash of HEAD", skill: 'git' },
  { intent: 'show the branches on origin', skill: 'git' },
  { intent: 'history of changes to package.json', skill: 'git' },
  { intent: 'list everything in /var/log', skill: 'files' },
  { intent: 'read the top 5 lines of notes.txt', skill: 'files' },
  { intent: 'how big is this text file in words', skill: 'files' },
  { intent: 'what format is this download', skill: 'files' },
  { intent: 'locate all .txt files in my home', skill: 'files' },
  { intent: "show me what's in this directory", skill: 'files' },
  { intent: 'how much swap is in use', skill: 'system' },
  { intent: 'is the disk almost full', skill: 'system' },
  { intent: 'which process is using the most memory', skill: 'system' },
  { intent: 'what process is bound to port 80', skill: 'system' },
  { intent: 'how many users are logged in', skill: 'system' },
  { intent: 'my computer is sluggish', skill: 'system' },
  { intent: 'can this machine resolve api.github.com', skill: 'network' },
  { intent: 'is 8.8.8.8 reachable', skill: 'network' },
  { intent: 'the website seems down, check it', skill: 'network' },
  { intent: 'what addresses does localhost resolve to', skill: 'network' },
  { intent: 'test packet loss to my gateway', skill: 'network' },
  { intent: 'draft the message for this commit', skill: 'commit-message' },
  { intent: 'write a conventional commit for these changes', skill: 'commit-message' },
  { intent: 'turn my staged diff into a commit message', skill: 'commit-message' },
  { intent: 'how do I give a tool a default value for a parameter', skill: 'skill-authoring' },
  { intent: 'what does the W401 warning mean', skill: 'skill-authoring' },
  { intent: 'make my own skill for converting images', skill: 'skill-authoring' },
  { intent: 'how do I declare which binaries a skill needs', skill: 'skill-authoring' },
  { intent: 'checksum the tarball we just built', skill: 'artifact-checksum', roleFilter: 'sidecar' },
  { intent: 'record the hash of the generated report', skill: 'artifact-checksum', roleFilter: 'sidecar' },
];
