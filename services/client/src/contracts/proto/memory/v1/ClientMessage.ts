// Original file: proto/memory/v1/event_stream.proto

import type { ConversationEvent as _memory_v1_ConversationEvent, ConversationEvent__Output as _memory_v1_ConversationEvent__Output } from '../../memory/v1/ConversationEvent.js';

export interface ClientMessage {
  'event'?: (_memory_v1_ConversationEvent | null);
  'message'?: "event";
}

export interface ClientMessage__Output {
  'event'?: (_memory_v1_ConversationEvent__Output | null);
  'message'?: "event";
}
