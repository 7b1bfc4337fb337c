// Original file: proto/memory/v1/event_stream.proto

import type { EventAck as _memory_v1_EventAck, EventAck__Output as _memory_v1_EventAck__Output } from '../../memory/v1/EventAck.js';
import type { AnticipatedContext as _memory_v1_AnticipatedContext, AnticipatedContext__Output as _memory_v1_AnticipatedContext__Output } from '../../memory/v1/AnticipatedContext.js';
import type { EventAcks as _memory_v1_EventAcks, EventAcks__Output as _memory_v1_EventAcks__Output } from '../../memory/v1/EventAcks.js';

export interface ServerMessage {
  'ack'?: (_memory_v1_EventAck | null);
  'anticipatedContext'?: (_memory_v1_AnticipatedContext | null);
  'acks'?: (_memory_v1_EventAcks | null);
  'message'?: "ack"|"anticipatedContext"|"acks";
}

export interface ServerMessage__Output {
  'ack'?: (_memory_v1_EventAck__Output | null);
  'anticipatedContext'?: (_memory_v1_AnticipatedContext__Output | null);
  'acks'?: (_memory_v1_EventAcks__Output | null);
  'message'?: "ack"|"anticipatedContext"|"acks";
}
