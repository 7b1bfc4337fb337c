// Original file: proto/memory/v1/event_stream.proto

import type { ContextItem as _memory_v1_ContextItem, ContextItem__Output as _memory_v1_ContextItem__Output } from '../../memory/v1/ContextItem.js';

export interface AnticipatedContext {
  'conversationId'?: (string);
  'inReplyToEventId'?: (string);
  'items'?: (_memory_v1_ContextItem)[];
}

export interface AnticipatedContext__Output {
  'conversationId': (string);
  'inReplyToEventId': (string);
  'items': (_memory_v1_ContextItem__Output)[];
}
