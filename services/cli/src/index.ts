export * from './startServices.js'
export * from './replayCommand.js'
