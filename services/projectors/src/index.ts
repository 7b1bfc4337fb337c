export { startAnalyticsProjection, startProjectorsService } from './main.js'
export { startProjectors, projectionGroups, type RunningProjectors } from './startProjectors.js'
export { startConfigRebuilds } from './configRebuilds.js'
