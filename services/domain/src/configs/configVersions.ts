import type {
  ConfigRebuildChanged,
  ConfigVersion,
  ConfigVersionApplied,
  ConfigVersionProposed,
  ConfigVersionReviewed,
} from '@memory-service/contracts'
import { AppError } from '../errors/appError.js'
import {
  defaultArchitectureConfig,
  projectionsToRebuild,
  type ArchitectureConfig,
  type RebuildableProjection,
} from './architectureConfig.js'

export type ConfigEvent =
  ConfigVersionProposed | ConfigVersionReviewed | ConfigVersionApplied | ConfigRebuildChanged

export type ConfigVersionRecord = Omit<ConfigVersion, 'configuration'> & { configuration: ArchitectureConfig }
export type ConfigStatus = ConfigVersion['status']
type Rebuild = NonNullable<ConfigVersion['rebuild']>

/** The configuration versions of every instance, as the control topic has built them. */
export interface ConfigVersions {
  byId: Map<string, ConfigVersionRecord>
  /** instance_id → config_id of its active version. */
  active: Map<string, string>
  /** instance_id → its versions, oldest first. */
  byInstance: Map<string, ConfigVersionRecord[]>
}

export function emptyConfigVersions(): ConfigVersions {
  return { byId: new Map(), active: new Map(), byInstance: new Map() }
}

type Outcome = { applied: true } | { applied: false; reason: string }

/**
 * Applies one configuration event in log order. Transitions: pending_review → approved | rejected (review);
 * approved → active (apply), and the version active before → superseded. An event that does not fit the version's
 * status changes nothing, so two reviewers or two appliers racing leave the state every reader agrees on: the first
 * review counts, and the last apply in the log is the one active.
 */
export function applyConfigEvent(versions: ConfigVersions, event: ConfigEvent): Outcome {
  if (event.type === 'config_version_proposed') {
    if (versions.byId.has(event.config_id)) return { applied: false, reason: 'config id exists' }
    const ofInstance = versions.byInstance.get(event.instance_id) ?? []
    const record: ConfigVersionRecord = {
      config_id: event.config_id,
      instance_id: event.instance_id,
      version: ofInstance.length + 1,
      status: 'pending_review',
      configuration: event.configuration as ArchitectureConfig,
      source_format: event.source_format,
      proposed_by: event.proposed_by,
      proposed_at: event.occurred_at,
      review: null,
      applied_at: null,
      applied_by: null,
      superseded_at: null,
      superseded_by: null,
      rebuild: null,
    }
    versions.byId.set(record.config_id, record)
    versions.byInstance.set(event.instance_id, [...ofInstance, record])
    return { applied: true }
  }
  const version = versions.byId.get(event.config_id)
  if (version?.instance_id !== event.instance_id) return { applied: false, reason: 'unknown config' }
  switch (event.type) {
    case 'config_version_reviewed': {
      if (version.status !== 'pending_review')
        return { applied: false, reason: `config is ${version.status}` }
      version.status = event.decision
      version.review = {
        decision: event.decision,
        comment: event.comment ?? null,
        reviewed_by: event.reviewed_by,
        reviewed_at: event.occurred_at,
      }
      return { applied: true }
    }
    case 'config_version_applied': {
      if (version.status !== 'approved') return { applied: false, reason: `config is ${version.status}` }
      const previousId = versions.active.get(event.instance_id)
      const previous = previousId ? versions.byId.get(previousId) : undefined
      if (previous) {
        previous.status = 'superseded'
        previous.superseded_at = event.occurred_at
        previous.superseded_by = version.config_id
      }
      version.status = 'active'
      version.applied_at = event.occurred_at
      version.applied_by = event.applied_by
      versions.active.set(event.instance_id, version.config_id)
      // Before any version the instance was served with the defaults, so the first one compares with them.
      const projections = projectionsToRebuild(
        previous?.configuration ?? implicitConfigOf(version.configuration),
        version.configuration,
      )
      version.rebuild = projections.length > 0 ? pendingRebuild(projections) : null
      return { applied: true }
    }
    case 'config_rebuild_changed': {
      const rebuild = version.rebuild
      if (!rebuild) return { applied: false, reason: 'config started no rebuild' }
      // The first runner to report claims the rebuild; another process only takes over a stalled one.
      const claims = rebuild.status === 'pending' || (event.takeover === true && rebuild.status === 'running')
      if (claims) rebuild.runner = event.runner
      else if (rebuild.runner !== event.runner || rebuild.status !== 'running')
        return { applied: false, reason: `rebuild is ${rebuild.status} by ${rebuild.runner ?? 'nobody'}` }
      applyRebuildChange(rebuild, event)
      return { applied: true }
    }
  }
}

function pendingRebuild(projections: RebuildableProjection[]): Rebuild {
  return {
    status: 'pending',
    projections,
    started_at: null,
    finished_at: null,
    progress: projections.map((projection) => ({
      projection,
      status: 'pending',
      events_read: 0,
      behind: null,
    })),
    error: null,
    runner: null,
    updated_at: null,
  }
}

function applyRebuildChange(rebuild: Rebuild, event: ConfigRebuildChanged): void {
  const step = rebuild.progress.find((entry) => entry.projection === event.projection)
  if (step) {
    step.status = event.status
    if (event.events_read !== undefined) step.events_read = event.events_read
    if (event.behind !== undefined) step.behind = event.behind
  }
  rebuild.started_at ??= event.occurred_at
  rebuild.updated_at = event.occurred_at
  if (event.status === 'failed') rebuild.error = event.error ?? 'rebuild failed'
  const final = event.projection === undefined && event.status !== 'running'
  rebuild.status = final ? event.status : event.status === 'failed' ? 'failed' : 'running'
  if (final || event.status === 'failed') rebuild.finished_at = event.occurred_at
}

/** The defaults an instance had before its first version, with that version's embedding model. */
const implicitConfigOf = (config: ArchitectureConfig): ArchitectureConfig =>
  defaultArchitectureConfig({
    model: config.storage.vector.embedding_model,
    dimension: config.storage.vector.embedding_dimension,
  })

/** 404 for a version that does not exist or belongs to another instance (which is not told apart). */
export function findConfigVersion(
  versions: ConfigVersions,
  instanceId: string,
  configId: string,
): ConfigVersionRecord {
  const version = versions.byId.get(configId)
  if (version?.instance_id !== instanceId) {
    throw new AppError('CONFIG_NOT_FOUND', 'Configuration version not found', {
      config_id: configId,
      instance_id: instanceId,
    })
  }
  return version
}

function conflict(
  version: ConfigVersionRecord,
  action: 'review' | 'apply',
  required: ConfigStatus,
): AppError {
  return new AppError(
    'CONFIG_CONFLICT',
    `Cannot ${action} a configuration version that is ${version.status}; it must be ${required}`,
    {
      config_id: version.config_id,
      current_status: version.status,
      requested_action: action,
      required_status: required,
    },
  )
}

/**
 * Why a review is refused, if it is: only a pending version can be reviewed, and the key that proposed a version
 * cannot approve it (it may reject it, which withdraws it).
 */
export function reviewRefusal(
  version: ConfigVersionRecord,
  decision: 'approved' | 'rejected',
  reviewer: { keyId: string; permissions: readonly string[] },
): AppError | undefined {
  if (version.status !== 'pending_review') return conflict(version, 'review', 'pending_review')
  if (decision === 'approved' && version.proposed_by === reviewer.keyId) {
    return new AppError('FORBIDDEN', 'The key that proposed a configuration version cannot approve it', {
      required_permission: 'configs:review',
      current_permissions: reviewer.permissions,
      reason: 'own_proposal',
      config_id: version.config_id,
    })
  }
  return undefined
}

/** Why an apply is refused, if it is: only an approved version can be applied, and not twice. */
export function applyRefusal(version: ConfigVersionRecord): AppError | undefined {
  if (version.status === 'active') {
    return new AppError('CONFIG_ALREADY_ACTIVE', 'This configuration version is already active', {
      config_id: version.config_id,
      applied_at: version.applied_at,
    })
  }
  if (version.status !== 'approved') return conflict(version, 'apply', 'approved')
  return undefined
}
