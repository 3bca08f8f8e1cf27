/** Error codes and the shape an error takes on the wire: shared by the core and every client. */

/** Stable snake_case name of each error code, for programs that prefer words to numbers. */
export const ERROR_KINDS = {
  // skillc registry (RFC-0005:C-CODES)
  E001: 'skill_not_found',
  E002: 'index_unusable',
  E003: 'index_collision',
  E004: 'empty_query',
  E010: 'not_a_skill',
  E011: 'missing_frontmatter_field',
  E012: 'path_escapes_root',
  E020: 'section_not_found',
  E021: 'file_not_found',
  E022: 'directory_not_found',
  E023: 'not_readable', // a file or folder of a skill exists but cannot be read (permission denied, a special file)
  E030: 'invalid_query_type',
  E031: 'invalid_filter',
  E040: 'no_local_logs', // sync: the named skill has no fallback logs in the project
  E041: 'sync_destination_not_writable', // sync: the skill's primary runtime dir cannot be written
  E042: 'sync_source_not_readable', // sync: a fallback log database cannot be read
  E100: 'invalid_option',
  E101: 'usage', // a command line that does not fit the command: arguments missing or extra, an unknown command
  E150: 'invalid_name', // new: a skill name that is not a slug of at most 64 characters, or a tool name that is not [a-z0-9_]+
  E151: 'skill_exists', // new: the folder exists, or a loaded skill already has the name (the new one would hide it)
  E999: 'internal',
  // E3xx: installed skill packs
  E301: 'pack_source_invalid', // not a git URL, repository, folder, .zip or .tar.gz that exists
  E302: 'pack_fetch_failed', // git or the archive failed (no such ref, unreadable or hostile archive)
  E303: 'pack_refused', // high-severity scan findings and no --force
  E304: 'pack_confirmation_required', // nobody confirmed the scan report (no --yes, no click)
  E305: 'skill_name_clash', // an installed skill would shadow another (or be shadowed): --as NAME
  E306: 'pack_not_found', // no installed pack of that name
  E307: 'pack_has_no_skills', // no SKILL.md at the top of the source or one level down
  E308: 'packs_busy', // another process is installing, updating or removing packs
  E309: 'invalid_key', // trust-key given something that is not an SSH public key or an armored GPG key
  E310: 'pack_changed_since_scan', // the source changed between the scan the person confirmed and the install
  E311: 'invalid_pack_name', // a pack or --as name that is not a slug
  E312: 'pack_not_repairable', // the source no longer holds the content the lock records
  // E5xx: templates and arguments
  E501: 'missing_argument',
  E502: 'unknown_argument',
  E503: 'invalid_argument_type',
  E504: 'argument_looks_like_option',
  E505: 'invalid_enum_value',
  E506: 'tool_not_found',
  E507: 'skill_has_errors',
  E508: 'invalid_arguments',
  E509: 'template_error',
  E510: 'invalid_cwd', // a run's working directory is not an existing absolute directory
  E511: 'workspace_refused', // the working directory is not where a run may work: /, a home folder or a hidden folder of it, Skilltray's home, a system tree…
  E512: 'bind_refused', // a declared read or a program would show a secret, Skilltray's home, a whole home or a kernel tree
  E513: 'workspace_too_big', // a writing run's folder is too big or deep to hold every hidden entry read-only
  E514: 'workspace_moved', // the run's folder was moved or replaced after the decision (where no descriptor can be bound)
  E515: 'sandbox_gone', // the sandbox a contained run was decided with cannot be built when it starts: it never runs uncontained instead
  E520: 'example_not_found', // run --example N: the tool's Examples section has no call N (the message lists those it has)
  E521: 'example_invalid', // run --example N: that call's arguments cannot be read, or it calls another tool
  // E6xx: policy and approval
  E601: 'approval_required',
  E602: 'denied_by_rule',
  E603: 'denied_by_user',
  E604: 'approval_timed_out',
  E605: 'tool_not_offered_in_mode',
  E606: 'missing_binary',
  E607: 'missing_environment',
  E608: 'runs_paused',
  E609: 'invalid_rule',
  E610: 'unknown_mode',
  E611: 'approval_not_found',
  E612: 'skill_changed',
  E613: 'approval_cancelled', // the requester withdrew a pending approval
  E614: 'rule_not_found', // no rule with that id
  E615: 'remembered_not_found', // no active remembered approval with that id
  E616: 'invalid_verdict', // a verdict other than once, always or deny
  E617: 'invalid_shortcut', // a palette shortcut that is not an accelerator with a modifier
  E618: 'skill_disabled', // the person turned the skill off (everywhere or in this mode)
  E625: 'rule_covers_nothing', // an allow rule that matches no loaded skill's tool (rules are pinned to the skills they allow)
  E626: 'invalid_remember_scope', // an Always the pending request does not offer (any folder for a tool that may write, or an unverified skill)
  // E63x: answering by voice (docs/voice.md)
  E630: 'voice_audio_invalid', // the audio is not a 16 kHz mono 16-bit PCM WAV (or not base64)
  E631: 'voice_audio_empty', // the WAV holds no samples
  E632: 'voice_audio_too_long', // longer than 10 s
  E633: 'voice_audio_too_large', // more than 2 MiB
  E634: 'voice_unavailable', // the recogniser or the synthesiser is missing or failed
  E636: 'voice_off', // the person turned voice off in Settings
  // E7xx: runner
  E701: 'spawn_failed',
  E702: 'run_not_found',
  E704: 'invalid_process_spec', // runner given limits it cannot honour (timeout, cap, grace) or a relative program
  E705: 'run_interrupted', // the process that owned the run stopped (signal, crash, closed terminal) before it finished
  E706: 'limits_unavailable', // the run's resource limits could not be set up, so it did not start
  E707: 'program_in_secret_place', // the program resolves to a file in a secret place or Skilltray's home
  // E8xx: agent gateway and transports
  E801: 'attach_validation',
  E802: 'unauthorized',
  E803: 'forbidden_origin',
  E804: 'body_too_large',
  E805: 'invalid_request',
  E806: 'route_not_found',
  E807: 'app_not_reachable',
  E808: 'method_not_allowed',
  E809: 'owner_already_running', // another app or `serve` already owns runs for this home
  E810: 'listen_failed', // the loopback port could not be bound (in use, or not permitted)
  E811: 'too_many_streams', // one token already holds the most event streams a server keeps open for it
  E812: 'server_busy', // more requests are waiting than the server queues: try again after Retry-After
  E813: 'idempotency_key_reused', // an Idempotency-Key sent again with a different request
  E814: 'person_only', // an operation only the person may call, asked with an assistant's credential (HTTP 403)
  // E85x: connecting assistants (MCP clients' config files)
  E850: 'assistant_config_invalid', // the client's config file does not parse (line and column): left untouched
  E851: 'unknown_assistant', // no client of that name in the table
  E852: 'assistant_not_found', // the client is not on this machine (no config folder, no program on PATH)
  E853: 'assistant_config_unwritable', // the config file (or its backup) could not be written
  E854: 'bridge_not_working', // the bridge connect would write does not complete an MCP handshake here
  E855: 'transport_not_available', // the client takes no URL, or no owner of runs serves /mcp now
  E856: 'project_skills_changed', // a project folder's skills differ from what the person trusted (or was shown)
  E857: 'project_not_trusted', // no trusted project folder at that path
  // E86x: skills over MCP (the Skills extension, SEP-2640), served and taken
  E860: 'invalid_mcp_source', // a source name that is not a slug, or neither a command nor an http(s) URL
  E861: 'mcp_source_exists', // a source of that name is already added
  E862: 'mcp_source_not_found', // no source of that name
  E863: 'mcp_source_unreachable', // the server did not start, answer or complete initialize in time
  E864: 'no_skills_extension', // the server does not declare io.modelcontextprotocol/skills
  E865: 'served_skill_invalid', // an entry against the SEP's rules: its URI, a hostile path, no resources, a name two skills share
  E866: 'served_skill_unverified', // bytes that do not match their digest, or a SKILL.md whose frontmatter is not the entry's
  E867: 'served_skill_changed', // the skill changed between two calls, or since the person was shown it
  E868: 'served_skill_too_large', // more files or bytes than a skill may hold, a message or a listing past its bound
  E869: 'served_skill_not_found', // no served skill of that name, or one that waits for the person's approval
  // E9xx: the state database (E999 stays skillc's internal error)
  E901: 'state_db_recovered', // state.db was damaged, moved aside and rebuilt from what could be read
  E902: 'state_db_rules_lost', // …and some rules could not be read back: runs are paused until checked
  E903: 'notice_not_found', // no notice still shown with that id
  E904: 'home_read_only', // a write to Skilltray's home (state.db, an index, a cache) was refused: read-only or not permitted
  E905: 'disk_full', // no space left on the device that holds the file being written
  E906: 'state_db_recovery_failed', // recovering a damaged state.db failed part way: runs paused, the damaged file kept
} as const;

export type ErrorCode = keyof typeof ERROR_KINDS;

export type ErrorKind = (typeof ERROR_KINDS)[ErrorCode];

/** The shape an error takes when it crosses a process or wire boundary. */
export interface ErrorShape {
  code: ErrorCode;
  kind: ErrorKind;
  message: string;
  details?: Record<string, unknown>;
}
