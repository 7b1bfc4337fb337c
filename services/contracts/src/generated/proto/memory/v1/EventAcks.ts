// Original file: proto/memory/v1/event_stream.proto

import type { EventAck as _memory_v1_EventAck, EventAck__Output as _memory_v1_EventAck__Output } from '../../memory/v1/EventAck.js';

export interface EventAcks {
  'acks'?: (_memory_v1_EventAck)[];
}

export interface EventAcks__Output {
  'acks': (_memory_v1_EventAck__Output)[];
}
