export * from './startServices.js'
export * from './reembedCommand.js'
export * from './replayCommand.js'
export * from './verifyCommand.js'
