// Original file: proto/memory/v1/event_stream.proto

import type { ConversationEvent as _memory_v1_ConversationEvent, ConversationEvent__Output as _memory_v1_ConversationEvent__Output } from '../../memory/v1/ConversationEvent.js';
import type { ConversationEvents as _memory_v1_ConversationEvents, ConversationEvents__Output as _memory_v1_ConversationEvents__Output } from '../../memory/v1/ConversationEvents.js';

export interface ClientMessage {
  'event'?: (_memory_v1_ConversationEvent | null);
  'events'?: (_memory_v1_ConversationEvents | null);
  'message'?: "event"|"events";
}

export interface ClientMessage__Output {
  'event'?: (_memory_v1_ConversationEvent__Output | null);
  'events'?: (_memory_v1_ConversationEvents__Output | null);
  'message'?: "event"|"events";
}
