import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AnticipatedContext as _memory_v1_AnticipatedContext, AnticipatedContext__Output as _memory_v1_AnticipatedContext__Output } from './memory/v1/AnticipatedContext.js';
import type { ClientMessage as _memory_v1_ClientMessage, ClientMessage__Output as _memory_v1_ClientMessage__Output } from './memory/v1/ClientMessage.js';
import type { ContextItem as _memory_v1_ContextItem, ContextItem__Output as _memory_v1_ContextItem__Output } from './memory/v1/ContextItem.js';
import type { ConversationEvent as _memory_v1_ConversationEvent, ConversationEvent__Output as _memory_v1_ConversationEvent__Output } from './memory/v1/ConversationEvent.js';
import type { ConversationEvents as _memory_v1_ConversationEvents, ConversationEvents__Output as _memory_v1_ConversationEvents__Output } from './memory/v1/ConversationEvents.js';
import type { EventAck as _memory_v1_EventAck, EventAck__Output as _memory_v1_EventAck__Output } from './memory/v1/EventAck.js';
import type { EventAcks as _memory_v1_EventAcks, EventAcks__Output as _memory_v1_EventAcks__Output } from './memory/v1/EventAcks.js';
import type { EventStreamClient as _memory_v1_EventStreamClient, EventStreamDefinition as _memory_v1_EventStreamDefinition } from './memory/v1/EventStream.js';
import type { ServerMessage as _memory_v1_ServerMessage, ServerMessage__Output as _memory_v1_ServerMessage__Output } from './memory/v1/ServerMessage.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  memory: {
    v1: {
      AnticipatedContext: MessageTypeDefinition<_memory_v1_AnticipatedContext, _memory_v1_AnticipatedContext__Output>
      ClientMessage: MessageTypeDefinition<_memory_v1_ClientMessage, _memory_v1_ClientMessage__Output>
      ContextItem: MessageTypeDefinition<_memory_v1_ContextItem, _memory_v1_ContextItem__Output>
      ConversationEvent: MessageTypeDefinition<_memory_v1_ConversationEvent, _memory_v1_ConversationEvent__Output>
      ConversationEvents: MessageTypeDefinition<_memory_v1_ConversationEvents, _memory_v1_ConversationEvents__Output>
      EventAck: MessageTypeDefinition<_memory_v1_EventAck, _memory_v1_EventAck__Output>
      EventAcks: MessageTypeDefinition<_memory_v1_EventAcks, _memory_v1_EventAcks__Output>
      EventStream: SubtypeConstructor<typeof grpc.Client, _memory_v1_EventStreamClient> & { service: _memory_v1_EventStreamDefinition }
      ServerMessage: MessageTypeDefinition<_memory_v1_ServerMessage, _memory_v1_ServerMessage__Output>
    }
  }
}

