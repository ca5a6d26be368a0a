/// One dashboard chart: counts per bucket of a few series, drawn as stacked bars in inline SVG by the `chart`
/// template (no script, no inline style: bars carry classes the stylesheet colours, light and dark). The SVG has a
/// `<title>` and a `<desc>` summing it up, each bar a tooltip, and the numbers are in a table beside it.
struct ConsoleChart {
    /// One series: its name, the stylesheet class of its colour, and a count per bucket.
    struct Series {
        let name: String
        let style: String
        let values: [Int64]

        var total: Int64 { values.reduce(0, +) }
    }

    let id: String
    let title: String
    /// Each bucket's name in the table and tooltips (`2026-11-26 13:00`), and on the axis (`13:00`), or `nil` where the
    /// axis shows none.
    let buckets: [(name: String, tick: String?)]
    let series: [Series]
    /// Says what the period is, for the summary (`the last 24 hours`).
    let period: String
    /// A limit drawn as a horizontal line across the bars (the scale reaches it), named in the summary and legend:
    /// the SMS budget's chart.
    var limit: (value: Int64, label: String)? = nil
    /// The table's rows when they sum the buckets (a year's days by month: the page stays light, and the days are in
    /// the CSV download): each bucket's row name, consecutive buckets of one name summed.
    var tableGroup: ((Int) -> String)? = nil

    // The drawing's geometry, in SVG user units (the SVG scales to the page's width).
    static let (width, height) = (760.0, 204.0)
    static let (left, right, top, plotHeight) = (52.0, 8.0, 12.0, 160.0)

    /// The table's rows: one per bucket, or per group of buckets (``tableGroup``).
    private var tableRows: [[String: Any]] {
        var groups: [(name: String, indexes: [Int])] = []
        for i in buckets.indices {
            let name = tableGroup?(i) ?? buckets[i].name
            if groups.last?.name == name { groups[groups.count - 1].indexes.append(i) } else { groups.append((name, [i])) }
        }
        return groups.map { group -> [String: Any] in
            let values = series.map { s in group.indexes.reduce(0) { $0 + s.values[$1] } }
            return ["name": group.name, "cells": values.map { ["value": $0] }, "total": values.reduce(0, +)]
        }
    }

    /// Every series' count summed.
    var total: Int64 { series.reduce(0) { $0 + $1.total } }

    /// The template's data.
    var data: [String: Any] {
        var data: [String: Any] = [
            "id": id, "title": title, "total": total, "summary": summary,
            "legend": series.map { ["name": $0.name, "style": $0.style, "total": $0.total] as [String: Any] },
            "columns": series.map { ["name": $0.name] },
            "rows": tableRows, "byMonth": tableGroup != nil,
        ]
        if total > 0 || limit != nil { data["svg"] = drawing }
        if let limit { data["limit"] = ["label": limit.label, "value": limit.value] }
        return data
    }

    /// One sentence with the numbers: the total, each series', and the busiest bucket.
    var summary: String {
        let limitText = limit.map { " \($0.label): \($0.value)." } ?? ""
        guard total > 0 else { return "None in \(period).\(limitText)" }
        let parts = series.filter { $0.total > 0 }.map { "\($0.name) \($0.total)" }.joined(separator: ", ")
        let sums = buckets.indices.map { i in series.reduce(0) { $0 + $1.values[i] } }
        let busiest = sums.indices.max { sums[$0] < sums[$1] } ?? 0
        let busiestText =
            limit == nil ? "Busiest: \(buckets[busiest].name) UTC, \(sums[busiest])." : "Most: \(buckets[busiest].name), \(sums[busiest])."
        return "\(total) in \(period): \(parts). \(busiestText)\(limitText)"
    }

    /// The SVG's shapes: horizontal grid lines with their values, the stacked bars, the axis' bucket names.
    private var drawing: [String: Any] {
        let sums = buckets.indices.map { i in series.reduce(0) { $0 + $1.values[i] } }
        let scale = Self.niceMaximum(max(sums.max() ?? 0, limit?.value ?? 0, 1))
        let (plotWidth, bottom) = (Self.width - Self.left - Self.right, Self.top + Self.plotHeight)
        let slot = plotWidth / Double(max(buckets.count, 1))
        func y(_ value: Int64) -> Double { bottom - Double(value) * Self.plotHeight / Double(scale) }
        let gridValues = scale % 2 == 0 ? [0, scale / 2, scale] : [0, scale]
        let grid: [[String: Any]] = gridValues.map { value in
            ["y": Self.number(y(value)), "label": value, "labelY": Self.number(y(value) + 5)]
        }
        var bars: [[String: Any]] = []
        for i in buckets.indices {
            var below: Int64 = 0
            for s in series where s.values[i] > 0 {
                let above = below + s.values[i]
                bars.append([
                    "x": Self.number(Self.left + Double(i) * slot + slot * 0.15), "width": Self.number(slot * 0.7),
                    "y": Self.number(y(above)), "height": Self.number(y(below) - y(above)), "style": s.style,
                    "tip": "\(buckets[i].name) · \(s.name): \(s.values[i])",
                ])
                below = above
            }
        }
        let ticks: [[String: Any]] = buckets.indices.compactMap { i in
            buckets[i].tick.map { ["x": Self.number(Self.left + (Double(i) + 0.5) * slot), "label": $0] }
        }
        var shapes: [String: Any] = [
            "width": Self.number(Self.width), "height": Self.number(Self.height), "gridLeft": Self.number(Self.left),
            "gridRight": Self.number(Self.width - Self.right), "labelX": Self.number(Self.left - 8), "tickY": Self.number(bottom + 24),
            "grid": grid, "bars": bars, "ticks": ticks,
        ]
        if let limit {
            let at = y(limit.value)
            shapes["limitLine"] = [
                "y": Self.number(at), "textY": Self.number(max(at - 6, Self.top + 4)), "textX": Self.number(Self.width - Self.right - 4),
                "label": "\(limit.label) \(limit.value)",
            ]
        }
        return shapes
    }

    /// The smallest of 1, 2, 5, 10, 20, 50… at least `value`: the top of the scale.
    static func niceMaximum(_ value: Int64) -> Int64 {
        var step: Int64 = 1
        while true {
            for factor: Int64 in [1, 2, 5] where step * factor >= value { return step * factor }
            step *= 10
        }
    }

    /// A coordinate with at most one decimal (`12`, `12.5`).
    static func number(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
