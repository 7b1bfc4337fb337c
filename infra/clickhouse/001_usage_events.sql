-- Usage analytics. The analytics projector writes each UsageRecorded event once into usage_raw (it skips event ids
-- already there, so a replayed event is not counted twice); ClickHouse maintains the roll-ups through materialized
-- views. Retention (spec: Limits): minute buckets 30 days, hour buckets one year, day buckets forever.

-- An earlier layout that no service ever wrote to.
DROP TABLE IF EXISTS {{database}}.usage_by_minute_mv;
DROP TABLE IF EXISTS {{database}}.usage_by_minute;
DROP TABLE IF EXISTS {{database}}.usage_events;

CREATE TABLE IF NOT EXISTS {{database}}.usage_raw
(
    event_id       String,
    instance_id    LowCardinality(String),
    metric         LowCardinality(String),
    value          Float64,
    latency_ms     Nullable(Float64),
    user_id        String DEFAULT '',
    customer_id    String DEFAULT '',
    document_type  LowCardinality(String) DEFAULT '',
    mode           LowCardinality(String) DEFAULT '',
    operation      LowCardinality(String) DEFAULT '',
    model          LowCardinality(String) DEFAULT '',
    stage          LowCardinality(String) DEFAULT '',
    status_code    UInt16 DEFAULT 0,
    compression_ratio Nullable(Float64),
    validation_score  Nullable(Float64),
    occurred_at    DateTime64(3, 'UTC'),
    INDEX event_id_bloom event_id TYPE bloom_filter GRANULARITY 4
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (instance_id, metric, occurred_at)
TTL toDateTime(occurred_at) + INTERVAL 400 DAY DELETE;

-- Compaction quality (context_compact events), added after the first release of this table.
ALTER TABLE {{database}}.usage_raw ADD COLUMN IF NOT EXISTS compression_ratio Nullable(Float64) AFTER status_code;
ALTER TABLE {{database}}.usage_raw ADD COLUMN IF NOT EXISTS validation_score Nullable(Float64) AFTER compression_ratio;

CREATE TABLE IF NOT EXISTS {{database}}.usage_minute
(
    instance_id    LowCardinality(String),
    metric         LowCardinality(String),
    bucket         DateTime('UTC'),
    user_id        String,
    customer_id    String,
    document_type  LowCardinality(String),
    mode           LowCardinality(String),
    operation      LowCardinality(String),
    model          LowCardinality(String),
    failed         UInt8,
    events         SimpleAggregateFunction(sum, UInt64),
    total          SimpleAggregateFunction(sum, Float64),
    latency_count  SimpleAggregateFunction(sum, UInt64),
    latency_sum    SimpleAggregateFunction(sum, Float64),
    latency        AggregateFunction(quantilesTDigestIf(0.5, 0.95, 0.99), Float64, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMMDD(bucket)
ORDER BY (instance_id, metric, bucket, user_id, customer_id, document_type, mode, operation, model, failed)
TTL bucket + INTERVAL 30 DAY DELETE;

CREATE TABLE IF NOT EXISTS {{database}}.usage_hour AS {{database}}.usage_minute
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (instance_id, metric, bucket, user_id, customer_id, document_type, mode, operation, model, failed)
TTL bucket + INTERVAL 365 DAY DELETE;

CREATE TABLE IF NOT EXISTS {{database}}.usage_day AS {{database}}.usage_minute
ENGINE = AggregatingMergeTree
PARTITION BY toYear(bucket)
ORDER BY (instance_id, metric, bucket, user_id, customer_id, document_type, mode, operation, model, failed);

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_minute_mv TO {{database}}.usage_minute AS
SELECT instance_id, metric, toStartOfMinute(occurred_at) AS bucket, user_id, customer_id, document_type, mode,
       operation, model, toUInt8(status_code >= 500) AS failed,
       count() AS events, sum(value) AS total, countIf(latency_ms IS NOT NULL) AS latency_count,
       sum(ifNull(latency_ms, 0)) AS latency_sum,
       quantilesTDigestIfState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0), latency_ms IS NOT NULL) AS latency
FROM {{database}}.usage_raw
GROUP BY instance_id, metric, bucket, user_id, customer_id, document_type, mode, operation, model, failed;

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_hour_mv TO {{database}}.usage_hour AS
SELECT instance_id, metric, toStartOfHour(occurred_at) AS bucket, user_id, customer_id, document_type, mode,
       operation, model, toUInt8(status_code >= 500) AS failed,
       count() AS events, sum(value) AS total, countIf(latency_ms IS NOT NULL) AS latency_count,
       sum(ifNull(latency_ms, 0)) AS latency_sum,
       quantilesTDigestIfState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0), latency_ms IS NOT NULL) AS latency
FROM {{database}}.usage_raw
GROUP BY instance_id, metric, bucket, user_id, customer_id, document_type, mode, operation, model, failed;

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_day_mv TO {{database}}.usage_day AS
SELECT instance_id, metric, toDateTime(toStartOfDay(occurred_at), 'UTC') AS bucket, user_id, customer_id,
       document_type, mode, operation, model, toUInt8(status_code >= 500) AS failed,
       count() AS events, sum(value) AS total, countIf(latency_ms IS NOT NULL) AS latency_count,
       sum(ifNull(latency_ms, 0)) AS latency_sum,
       quantilesTDigestIfState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0), latency_ms IS NOT NULL) AS latency
FROM {{database}}.usage_raw
GROUP BY instance_id, metric, bucket, user_id, customer_id, document_type, mode, operation, model, failed;
