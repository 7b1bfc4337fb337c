// Original file: proto/memory/v1/event_stream.proto

import type { ConversationEvent as _memory_v1_ConversationEvent, ConversationEvent__Output as _memory_v1_ConversationEvent__Output } from '../../memory/v1/ConversationEvent.js';

export interface ConversationEvents {
  'events'?: (_memory_v1_ConversationEvent)[];
}

export interface ConversationEvents__Output {
  'events': (_memory_v1_ConversationEvent__Output)[];
}
