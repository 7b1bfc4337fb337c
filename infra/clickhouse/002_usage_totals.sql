-- Narrow roll-ups: the same totals without the split by user, customer, document type and mode. The reads that do
-- not group by those (the summary, latency, tokens, ungrouped metrics) merge a few rows per bucket and metric here
-- instead of one per user × customer × mode × document type in the wide roll-ups of 001.
--
-- Each table is filled once from its wide roll-up when it is created empty (the wide one holds the same events;
-- a replay cannot refill it, since the projector skips the event ids usage_raw already has). Provisioning runs
-- before the analytics projector starts in this process, which alone writes its in-process ClickHouse, so no event
-- lands between the fill and the view that keeps the table current.

CREATE TABLE IF NOT EXISTS {{database}}.usage_totals_minute
(
    instance_id    LowCardinality(String),
    metric         LowCardinality(String),
    bucket         DateTime('UTC'),
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
ORDER BY (instance_id, metric, bucket, operation, model, failed)
TTL bucket + INTERVAL 30 DAY DELETE;

CREATE TABLE IF NOT EXISTS {{database}}.usage_totals_hour AS {{database}}.usage_totals_minute
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (instance_id, metric, bucket, operation, model, failed)
TTL bucket + INTERVAL 365 DAY DELETE;

CREATE TABLE IF NOT EXISTS {{database}}.usage_totals_day AS {{database}}.usage_totals_minute
ENGINE = AggregatingMergeTree
PARTITION BY toYear(bucket)
ORDER BY (instance_id, metric, bucket, operation, model, failed);

INSERT INTO {{database}}.usage_totals_minute
SELECT instance_id, metric, bucket, operation, model, failed, sum(events), sum(total), sum(latency_count),
       sum(latency_sum), quantilesTDigestIfMergeState(0.5, 0.95, 0.99)(latency)
FROM {{database}}.usage_minute
WHERE (SELECT count() FROM {{database}}.usage_totals_minute) = 0
GROUP BY instance_id, metric, bucket, operation, model, failed;

INSERT INTO {{database}}.usage_totals_hour
SELECT instance_id, metric, bucket, operation, model, failed, sum(events), sum(total), sum(latency_count),
       sum(latency_sum), quantilesTDigestIfMergeState(0.5, 0.95, 0.99)(latency)
FROM {{database}}.usage_hour
WHERE (SELECT count() FROM {{database}}.usage_totals_hour) = 0
GROUP BY instance_id, metric, bucket, operation, model, failed;

INSERT INTO {{database}}.usage_totals_day
SELECT instance_id, metric, bucket, operation, model, failed, sum(events), sum(total), sum(latency_count),
       sum(latency_sum), quantilesTDigestIfMergeState(0.5, 0.95, 0.99)(latency)
FROM {{database}}.usage_day
WHERE (SELECT count() FROM {{database}}.usage_totals_day) = 0
GROUP BY instance_id, metric, bucket, operation, model, failed;

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_totals_minute_mv TO {{database}}.usage_totals_minute AS
SELECT instance_id, metric, toStartOfMinute(occurred_at) AS bucket, operation, model,
       toUInt8(status_code >= 500) AS failed,
       count() AS events, sum(value) AS total, countIf(latency_ms IS NOT NULL) AS latency_count,
       sum(ifNull(latency_ms, 0)) AS latency_sum,
       quantilesTDigestIfState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0), latency_ms IS NOT NULL) AS latency
FROM {{database}}.usage_raw
GROUP BY instance_id, metric, bucket, operation, model, failed;

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_totals_hour_mv TO {{database}}.usage_totals_hour AS
SELECT instance_id, metric, toStartOfHour(occurred_at) AS bucket, operation, model,
       toUInt8(status_code >= 500) AS failed,
       count() AS events, sum(value) AS total, countIf(latency_ms IS NOT NULL) AS latency_count,
       sum(ifNull(latency_ms, 0)) AS latency_sum,
       quantilesTDigestIfState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0), latency_ms IS NOT NULL) AS latency
FROM {{database}}.usage_raw
GROUP BY instance_id, metric, bucket, operation, model, failed;

CREATE MATERIALIZED VIEW IF NOT EXISTS {{database}}.usage_totals_day_mv TO {{database}}.usage_totals_day AS
SELECT instance_id, metric, toDateTime(toStartOfDay(occurred_at), 'UTC') AS bucket, operation, model,
       toUInt8(status_code >= 500) AS failed,
       count() AS events, sum(value) AS total, countIf(latency_ms IS NOT NULL) AS latency_count,
       sum(ifNull(latency_ms, 0)) AS latency_sum,
       quantilesTDigestIfState(0.5, 0.95, 0.99)(ifNull(latency_ms, 0), latency_ms IS NOT NULL) AS latency
FROM {{database}}.usage_raw
GROUP BY instance_id, metric, bucket, operation, model, failed;
