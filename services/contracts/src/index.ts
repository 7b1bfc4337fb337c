/** @memory-service/contracts: the contract types generated from schemas/ and proto/ (the only copy); `./files` finds the contract files themselves. */
export type * from './generated/index.js'
