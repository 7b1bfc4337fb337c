import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { useEffect, useRef } from 'preact/hooks'

const palette = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed', '#0891b2', '#be185d', '#4d7c0f']

export interface ChartSeries {
  name: string
  /** null draws a gap: the API had no data in that bucket. */
  values: (number | null)[]
}

/**
 * A time chart (uPlot: 50 KB, canvas, fast with thousands of points). Gaps stay gaps. The figure has a text
 * alternative; the same numbers are in the page's table view for keyboard and screen-reader users.
 */
export function TimeChart(props: {
  title: string
  timestamps: number[]
  series: ChartSeries[]
  unit?: string
  height?: number
}) {
  const host = useRef<HTMLDivElement>(null)
  // The pages compute their series on every render; the chart is redrawn only when the numbers change.
  const dataKey = JSON.stringify([props.timestamps, props.series])
  useEffect(() => {
    const element = host.current
    if (!element) return
    const width = Math.max(280, element.clientWidth)
    const chart = new uPlot(
      {
        width,
        height: props.height ?? 240,
        scales: { x: { time: true } },
        axes: [{}, { label: props.unit ?? '', size: 60 }],
        series: [
          {},
          ...props.series.map((series, index) => ({
            label: series.name,
            stroke: palette[index % palette.length] ?? '#2563eb',
            width: 2,
            spanGaps: false,
            points: { show: props.timestamps.length < 60 },
          })),
        ],
      },
      [
        props.timestamps.map((time) => time / 1000),
        ...props.series.map((series) => series.values),
      ] as uPlot.AlignedData,
      element,
    )
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(280, element.clientWidth), height: props.height ?? 240 }),
    )
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
    }
  }, [dataKey, props.unit, props.height])
  const points = props.series.reduce(
    (sum, series) => sum + series.values.filter((value) => value !== null).length,
    0,
  )
  return (
    <figure
      class="chart"
      aria-label={`${props.title}: ${String(points)} data points in ${String(props.series.length)} series`}
    >
      <figcaption>{props.title}</figcaption>
      {points === 0 ? (
        <p class="empty">No data in this range.</p>
      ) : (
        <div ref={host} class="chart-canvas" data-points={points} />
      )}
    </figure>
  )
}

/** A sparkline as inline SVG: small enough for a summary card, no axes, gaps as breaks in the line. */
export function Sparkline(props: { values: (number | null)[]; label: string }) {
  const width = 120
  const height = 32
  const present = props.values.filter((value): value is number => value !== null)
  const max = Math.max(1, ...present)
  const step = props.values.length > 1 ? width / (props.values.length - 1) : width
  let path = ''
  let drawing = false
  props.values.forEach((value, index) => {
    if (value === null) {
      drawing = false
      return
    }
    const x = (index * step).toFixed(1)
    const y = (height - 2 - (value / max) * (height - 4)).toFixed(1)
    // A bucket alone between gaps is drawn as a dot (a zero-length line with round caps).
    path += drawing ? `L${x},${y} ` : `M${x},${y} l0.01,0 `
    drawing = true
  })
  return (
    <svg
      class="sparkline"
      viewBox={`0 0 ${String(width)} ${String(height)}`}
      width={width}
      height={height}
      role="img"
      aria-label={props.label}
    >
      <path d={path} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
    </svg>
  )
}
