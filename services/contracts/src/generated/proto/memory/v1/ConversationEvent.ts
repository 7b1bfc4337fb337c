// Original file: proto/memory/v1/event_stream.proto


export interface ConversationEvent {
  'eventId'?: (string);
  'eventType'?: (string);
  'conversationId'?: (string);
  'userId'?: (string);
  'customerId'?: (string);
  'role'?: (string);
  'content'?: (string);
  'occurredAt'?: (string);
  'metadataJson'?: (string);
  '_customerId'?: "customerId";
  '_role'?: "role";
  '_content'?: "content";
  '_occurredAt'?: "occurredAt";
}

export interface ConversationEvent__Output {
  'eventId': (string);
  'eventType': (string);
  'conversationId': (string);
  'userId': (string);
  'customerId'?: (string);
  'role'?: (string);
  'content'?: (string);
  'occurredAt'?: (string);
  'metadataJson': (string);
  '_customerId'?: "customerId";
  '_role'?: "role";
  '_content'?: "content";
  '_occurredAt'?: "occurredAt";
}
