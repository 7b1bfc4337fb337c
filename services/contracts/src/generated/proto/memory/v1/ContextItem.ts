// Original file: proto/memory/v1/event_stream.proto


export interface ContextItem {
  'memoryId'?: (string);
  'content'?: (string);
  'score'?: (number | string);
}

export interface ContextItem__Output {
  'memoryId': (string);
  'content': (string);
  'score': (number);
}
