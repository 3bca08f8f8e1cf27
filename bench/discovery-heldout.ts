/**
 * Held-out intents over the bundled packs, written together with the second half of the labelled
 * set and before the ranking was tuned: discover() must never be tuned on these. `npm run bench`
 * reports precision@1 on them beside the labelled set's, so an overfitted ranking shows.
 */
import type { LabelledIntent } from './discovery-intents.js';

export const HELD_OUT_INTENTS: LabelledIntent[] = [
  { intent: 'what files have I modified but not committed', skill: 'git' },
  { intent: "what's on the current branch", skill: 'git' },
  { intent: 'show the details of commit abc123', skill: 'git' },
  { intent: 'list local branches', skill: 'git' },
  { intent: 'print the beginning of README.md', skill: 'files' },
  { intent: 'is this a text file or a binary', skill: 'files' },
  { intent: 'show directory contents with sizes and permissions', skill: 'files' },
  { intent: 'peek at the top of a csv file', skill: 'files' },
  { intent: 'check ram usage', skill: 'system' },
  { intent: 'is something already using port 5432', skill: 'system' },
  { intent: 'list running processes', skill: 'system' },
  { intent: 'show free space on each filesystem', skill: 'system' },
  { intent: 'is the server at 10.0.0.5 up', skill: 'network' },
  { intent: 'why is my connection so slow', skill: 'network' },
  { intent: 'find the IP of localhost', skill: 'network' },
  { intent: 'summarize my staged diff as a commit message', skill: 'commit-message' },
  { intent: 'what should I write in my commit', skill: 'commit-message' },
  { intent: 'what goes in the frontmatter of a SKILL.md', skill: 'skill-authoring' },
  { intent: 'how do I make a prompt skill with $ARGUMENTS', skill: 'skill-authoring' },
  { intent: 'add a fingerprint to the artifact so we can verify it later', skill: 'artifact-checksum', roleFilter: 'sidecar' },
];
