/** @memory-service/commands: What the API does that writes: documents, tenancy, configurations, memory edits, conversations, erasure. */
export * from './configs/configCommands.js'
export * from './conversations/compactor.js'
export * from './conversations/conversations.js'
export * from './conversations/userErasure.js'
export * from './documents/createDocumentIngestor.js'
export * from './idempotency/createClaimStore.js'
export * from './memories/memoryEditor.js'
export * from './tenancy/tenancyCommands.js'
