-- Raw usage events, one row per event_id. ReplacingMergeTree collapses a replayed event on merge;
-- readers that need exact counts before a merge use FINAL or the roll-ups below.
CREATE TABLE IF NOT EXISTS {{database}}.usage_events
(
    event_id     String,
    instance_id  LowCardinality(String),
    metric       LowCardinality(String),
    value        Float64,
    latency_ms   Nullable(Float64),
    user_id      String DEFAULT '',
    customer_id  String DEFAULT '',
    dimensions   Map(LowCardinality(String), String),
    occurred_at  DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (instance_id, metric, occurred_at, event_id)
TTL toDateTime(occurred_at) + INTERVAL 400 DAY DELETE;

-- Minute roll-up maintained by ClickHouse itself; minute buckets are kept 30 days (spec: Limits).
CREATE TABLE IF NOT EXISTS {{database}}.usage_by_minute
(
    instance_id  LowCardinality(String),
    metric       LowCardinality(String),
    bucket       DateTime('UTC'),
    events       AggregateFunction(count),
    total        AggregateFunction(sum, Float64),
    latency      AggregateFunction(quantiles(0.5, 0.95, 0.99), Float64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMMDD(bucket)
ORDER BY (instance_id, metric, bucket)
TTL bucket + INTERVAL 30 DAY DELETE;

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_by_minute_mv TO {{database}}.usage_by_minute AS
SELECT
    instance_id,
    metric,
    toStartOfInterval(occurred_at, INTERVAL 1 MINUTE) AS bucket,
    countState() AS events,
    sumState(value) AS total,
    quantilesState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0)) AS latency
FROM {{database}}.usage_events
GROUP BY instance_id, metric, bucket;
