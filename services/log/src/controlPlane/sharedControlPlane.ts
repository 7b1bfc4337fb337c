import type { ProcessRuntime } from '@memory-service/engines'
import { createControlPlane, type ControlPlane } from './controlPlane.js'

/** One read model of the control topic per process, shared by the services it runs. */
export const sharedControlPlane = (runtime: ProcessRuntime): Promise<ControlPlane> =>
  runtime.shared(
    'control-plane',
    () =>
      createControlPlane({
        kafka: runtime.engines.kafka,
        codec: runtime.engines.schemaCodec,
        logger: runtime.logger,
      }),
    (control) => control.close(),
  )
