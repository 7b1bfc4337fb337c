// Original file: proto/memory/v1/event_stream.proto


// Original file: proto/memory/v1/event_stream.proto

export const _memory_v1_EventAck_Status = {
  STATUS_UNSPECIFIED: 'STATUS_UNSPECIFIED',
  ACCEPTED: 'ACCEPTED',
  DUPLICATE: 'DUPLICATE',
  REJECTED: 'REJECTED',
} as const;

export type _memory_v1_EventAck_Status =
  | 'STATUS_UNSPECIFIED'
  | 0
  | 'ACCEPTED'
  | 1
  | 'DUPLICATE'
  | 2
  | 'REJECTED'
  | 3

export type _memory_v1_EventAck_Status__Output = typeof _memory_v1_EventAck_Status[keyof typeof _memory_v1_EventAck_Status]

export interface EventAck {
  'eventId'?: (string);
  'status'?: (_memory_v1_EventAck_Status);
  'code'?: (string);
  'message'?: (string);
}

export interface EventAck__Output {
  'eventId': (string);
  'status': (_memory_v1_EventAck_Status__Output);
  'code': (string);
  'message': (string);
}
