import type { Client, estypes } from '@elastic/elasticsearch'
import { INGESTION_JOBS_INDEX, type IngestionJob } from '@memory-service/domain'
import type { IngestionJobList, IngestionJobListQuery } from '@memory-service/contracts'
import { createElasticsearchStore, pageWindow, totalHitsOf } from '@memory-service/engines'

/** The ingestion jobs' read model as the REST routes query it: one job by id, and an instance's recent jobs. */
export interface IngestionJobs {
  get(ingestionId: string): Promise<IngestionJob | null>
  recent(
    instanceId: string,
    query: Required<Pick<IngestionJobListQuery, 'page' | 'page_size'>> & IngestionJobListQuery,
  ): Promise<IngestionJobList>
}

export function createIngestionJobs(client: Client, index = INGESTION_JOBS_INDEX): IngestionJobs {
  const store = createElasticsearchStore<IngestionJob>(client, index)
  return {
    get: (ingestionId) => store.get(ingestionId),
    async recent(instanceId, query) {
      const filter: estypes.QueryDslQueryContainer[] = [{ term: { instance_id: instanceId } }]
      if (query.status !== undefined) filter.push({ term: { status: query.status } })
      const response = await client.search<IngestionJob>(
        {
          index,
          query: { bool: { filter } },
          // The id breaks ties, so a page boundary falls in the same place on every call.
          sort: [{ updated_at: 'desc' }, { ingestion_id: 'asc' }],
          ...pageWindow(query.page, query.page_size),
          track_total_hits: true,
        },
        // Before the first document is accepted the index may not exist yet: no jobs, not an error.
        { ignore: [404] },
      )
      // An ignored 404 answers the error's body, without hits.
      const answered = (response as Partial<typeof response>).hits
      const hits = answered?.hits ?? []
      const total = totalHitsOf(answered?.total)
      const items = hits.flatMap((hit) => {
        if (!hit._source) return []
        const { instance_id, memory_ids, ...job } = hit._source
        // As the status route: the memories a job produced are listed once it has finished.
        return [job.status === 'queued' || job.status === 'processing' ? job : { ...job, memory_ids }]
      })
      return {
        items,
        page: query.page,
        page_size: query.page_size,
        total,
        has_more: query.page * query.page_size < total,
      }
    },
  }
}
