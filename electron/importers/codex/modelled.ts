/**
 * What Arbor models of Codex's rollout format: ONE registry, read by the parser (rollout-entry.ts: which line
 * types are a rollout's) and by the Codex format doctor (format-doctor.ts, `arbor doctor`), which reports
 * everything not listed here — a test checks that every listed name has its own handling in the parser and
 * that an unlisted one falls through, so the two cannot drift. Unlisted shapes are still kept (an opaque
 * step or a record), never a stopped import. Plain data, one name a line.
 */
export const MODELLED = {
  /** `type` of a line. */
  lineTypes: [
    'session_meta',
    'response_item',
    'event_msg',
    'turn_context',
    'compacted',
  ],
  /** `payload.type` of a `response_item` (the model-visible history). */
  responseItemTypes: [
    'message',
    'reasoning',
    'function_call',
    'custom_tool_call',
    'local_shell_call',
    'function_call_output',
    'custom_tool_call_output',
    'web_search_call',
    'compaction',
    'compaction_summary',
    'ghost_snapshot',
  ],
  /**
   * `payload.type` of an `event_msg`. The first ones are steps; the rest are kept as records beside them on
   * purpose (a UI echo of a response item, a turn's start and end, usage, a call's end whose outcome the
   * response item already carries).
   */
  eventTypes: [
    'user_message',
    'agent_message',
    'agent_reasoning',
    'turn_aborted',
    'error',
    'token_count',
    'item_completed',
    'task_started',
    'task_complete',
    'exec_command_begin',
    'exec_command_end',
    'patch_apply_begin',
    'patch_apply_end',
    'web_search_begin',
    'web_search_end',
    'mcp_tool_call_begin',
    'mcp_tool_call_end',
    'collab_agent_spawn_end',
    'collab_waiting_end',
    'agent_reasoning_raw_content',
    'agent_reasoning_section_break',
    'context_compacted',
  ],
  /** `payload.item.type` of an `item_completed` event, compared without case or underscores (PascalCase and camelCase both occur). */
  itemTypes: [
    'usermessage',
    'agentmessage',
    'reasoning',
    'commandexecution',
    'filechange',
    'plan',
    'todolist',
    'websearch',
    'mcptoolcall',
    'contextcompaction',
  ],
} as const;

/** The spelling the registry compares item types in: `CommandExecution`, `command_execution`, `commandExecution` alike. */
export function itemTypeKey(type: string): string {
  return type.replace(/_/g, '').toLowerCase();
}

const LINE_TYPES: ReadonlySet<string> = new Set(MODELLED.lineTypes);
const RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set(MODELLED.responseItemTypes);
const EVENT_TYPES: ReadonlySet<string> = new Set(MODELLED.eventTypes);
const ITEM_TYPES: ReadonlySet<string> = new Set(MODELLED.itemTypes);

export function isModelledLineType(type: string): boolean {
  return LINE_TYPES.has(type);
}

export function isModelledResponseItemType(type: string): boolean {
  return RESPONSE_ITEM_TYPES.has(type);
}

export function isModelledEventType(type: string): boolean {
  return EVENT_TYPES.has(type);
}

export function isModelledItemType(type: string): boolean {
  return ITEM_TYPES.has(itemTypeKey(type));
}
