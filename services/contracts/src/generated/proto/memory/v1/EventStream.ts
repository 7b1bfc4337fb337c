// Original file: proto/memory/v1/event_stream.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClientMessage as _memory_v1_ClientMessage, ClientMessage__Output as _memory_v1_ClientMessage__Output } from '../../memory/v1/ClientMessage.js';
import type { ServerMessage as _memory_v1_ServerMessage, ServerMessage__Output as _memory_v1_ServerMessage__Output } from '../../memory/v1/ServerMessage.js';

export interface EventStreamClient extends grpc.Client {
  Stream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_memory_v1_ClientMessage, _memory_v1_ServerMessage__Output>;
  Stream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_memory_v1_ClientMessage, _memory_v1_ServerMessage__Output>;
  stream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_memory_v1_ClientMessage, _memory_v1_ServerMessage__Output>;
  stream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_memory_v1_ClientMessage, _memory_v1_ServerMessage__Output>;
  
}

export interface EventStreamHandlers extends grpc.UntypedServiceImplementation {
  Stream: grpc.handleBidiStreamingCall<_memory_v1_ClientMessage__Output, _memory_v1_ServerMessage>;
  
}

export interface EventStreamDefinition extends grpc.ServiceDefinition {
  Stream: MethodDefinition<_memory_v1_ClientMessage, _memory_v1_ServerMessage, _memory_v1_ClientMessage__Output, _memory_v1_ServerMessage__Output>
}
