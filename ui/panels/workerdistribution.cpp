#include "workerdistribution.h"

#include "consumerstyle.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace latprobe {

namespace {

constexpr int kHistogramHeight = 26;
constexpr int kEndGrip = 8; // px at each end of a strip that name its worker

// Progress: whole counts, shortened from ten thousand on.
QString progressText(double v)
{
    return v < 1e4 ? QString::number(v, 'f', 0) : compactCount(v);
}

QString secondsText(double s)
{
    return QString::number(s, 'f', s >= 100 ? 0 : s >= 10 ? 1 : 2);
}

// CPU times under a second in ms, where seconds would read 0.01.
QString cpuText(double s, bool inMs)
{
    return inMs ? QString::number(s * 1e3, 'f', s >= 0.01 ? 0 : 1) : secondsText(s);
}

} // namespace

QString compactCount(double v)
{
    if (v >= 1e9)
        return QString::number(v / 1e9, 'f', 1) + QStringLiteral(" G");
    if (v >= 1e6)
        return QString::number(v / 1e6, 'f', 1) + QStringLiteral(" M");
    if (v >= 1e4)
        return QString::number(v / 1e3, 'f', 1) + QStringLiteral(" k");
    return QString::number(v, 'f', v < 10 ? 1 : 0);
}

WorkerSpread spreadOf(const std::vector<double> &values, int bins)
{
    WorkerSpread s;
    std::vector<int> order;
    for (size_t i = 0; i < values.size(); ++i)
        if (!std::isnan(values[i]))
            order.push_back(static_cast<int>(i));
    if (order.empty())
        return s;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return values[static_cast<size_t>(a)] < values[static_cast<size_t>(b)];
    });
    const auto at = [&](size_t k) { return values[static_cast<size_t>(order[k])]; };
    s.count = static_cast<int>(order.size());
    s.lowest = order.front();
    s.highest = order.back();
    s.min = at(0);
    s.max = at(order.size() - 1);
    s.median = at((order.size() - 1) / 2); // nearest rank, as the reports' percentiles
    s.bins.assign(static_cast<size_t>(std::max(1, bins)), 0);
    const double span = s.max - s.min;
    for (size_t k = 0; k < order.size(); ++k) {
        const double share = span > 0 ? (at(k) - s.min) / span : 1.0;
        const auto bin = std::min(s.bins.size() - 1, static_cast<size_t>(share * s.bins.size()));
        ++s.bins[bin];
    }
    return s;
}

WorkerDistribution::WorkerDistribution(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
}

QSize WorkerDistribution::sizeHint() const
{
    const int strip = kHistogramHeight + fontMetrics().height() + 4;
    return {300, 2 * strip + 6};
}

QSize WorkerDistribution::minimumSizeHint() const
{
    return {120, sizeHint().height()};
}

int WorkerDistribution::binCount() const
{
    return std::clamp(width() / 6, 10, 60);
}

void WorkerDistribution::setWorkers(const std::vector<WorkerStatus> &workers, const QString &unit)
{
    m_workers = workers;
    m_unit = unit;
    recompute();
    update();
}

void WorkerDistribution::recompute()
{
    std::vector<double> progress, cpu;
    m_failed = 0;
    for (const WorkerStatus &w : m_workers) {
        progress.push_back(static_cast<double>(w.progress));
        cpu.push_back(w.cpuNs >= 0 ? static_cast<double>(w.cpuNs) / 1e9
                                   : std::numeric_limits<double>::quiet_NaN());
        m_failed += w.state == WorkerState::Failed ? 1 : 0;
    }
    // Counts over a narrower range than the bins: a bin per count, no gaps.
    const auto [lo, hi] = std::minmax_element(progress.begin(), progress.end());
    const int counts = progress.empty() ? 1 : static_cast<int>(std::min(1e6, *hi - *lo)) + 1;
    m_progress = spreadOf(progress, std::min(binCount(), counts));
    m_cpu = spreadOf(cpu, binCount());
}

QRect WorkerDistribution::stripRect(Strip strip) const
{
    const int stripHeight = kHistogramHeight + fontMetrics().height() + 4;
    const int top = strip == Strip::Progress ? 0 : stripHeight + 6;
    return {0, top, width(), kHistogramHeight};
}

QString WorkerDistribution::progressCaption() const
{
    const WorkerSpread &s = m_progress;
    if (s.count == 0)
        return tr("progress: no worker yet");
    QString text =
        tr("progress, %1: min %2 · median %3 · max %4")
            .arg(m_unit, progressText(s.min), progressText(s.median), progressText(s.max));
    if (s.max > 0)
        text += tr(" (min %1 % of max)").arg(100 * s.min / s.max, 0, 'f', 0);
    if (m_failed > 0)
        text += tr(" · %n failed", nullptr, m_failed);
    return text;
}

QString WorkerDistribution::cpuCaption() const
{
    const WorkerSpread &s = m_cpu;
    if (s.count == 0)
        return tr("CPU time unknown");
    const bool ms = s.max < 1;
    return (ms ? tr("CPU time, ms: min %1 · median %2 · max %3")
               : tr("CPU time, s: min %1 · median %2 · max %3"))
        .arg(cpuText(s.min, ms), cpuText(s.median, ms), cpuText(s.max, ms));
}

void WorkerDistribution::paintStrip(QPainter &p, Strip strip, const WorkerSpread &s,
                                    const QColor &colour, const QString &caption) const
{
    const QPalette pal = palette();
    const QRect r = stripRect(strip);
    p.fillRect(r, pal.color(QPalette::Base));
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const QRect inner = r.adjusted(2, 2, -2, -2);
    if (s.count > 0) {
        // Heights on a square-root scale: beside a spike of hundreds, a bin
        // of a few workers still shows (the tooltip has the counts).
        const double most = std::sqrt(*std::max_element(s.bins.begin(), s.bins.end()));
        const double w = static_cast<double>(inner.width()) / static_cast<double>(s.bins.size());
        for (size_t b = 0; b < s.bins.size(); ++b) {
            if (s.bins[b] == 0)
                continue;
            const int h = std::max(
                1, static_cast<int>(std::lround(inner.height() * std::sqrt(s.bins[b]) / most)));
            p.fillRect(QRectF(inner.left() + static_cast<double>(b) * w, inner.bottom() + 1 - h,
                              std::max(1.0, w - (w >= 4 ? 1 : 0)), h),
                       colour);
        }
        // The median, across the bars; min and max are the strip's ends.
        const double span = s.max - s.min;
        const double at = span > 0 ? (s.median - s.min) / span : 1.0;
        const int x = inner.left() + static_cast<int>(at * (inner.width() - 1));
        p.setPen(QPen(pal.color(QPalette::Text), 2));
        p.drawLine(x, r.top() + 1, x, r.bottom() - 1);
        // Grips at the ends: the slowest and the fastest, hoverable.
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::Text));
        for (const int end : {inner.left(), inner.right()}) {
            const int dx = end == inner.left() ? 1 : -1;
            p.drawPolygon(
                QPolygon({QPoint(end, r.bottom() - 1), QPoint(end + dx * 5, r.bottom() - 1),
                          QPoint(end, r.bottom() - 6)}));
        }
        p.setBrush(Qt::NoBrush);
    }
    p.setPen(pal.color(QPalette::WindowText));
    const QRect text(r.left(), r.bottom() + 2, r.width(), fontMetrics().height());
    p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(caption, Qt::ElideRight, text.width()));
}

void WorkerDistribution::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    recompute(); // as many bins as the width holds
}

void WorkerDistribution::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    const QColor cpu = isDarkPalette(pal) ? QColor(0x6c, 0xc0, 0x8c) : QColor(0x2e, 0x8b, 0x57);
    paintStrip(p, Strip::Progress, m_progress, pal.color(QPalette::Highlight), progressCaption());
    paintStrip(p, Strip::Cpu, m_cpu, cpu, cpuCaption());
}

QString WorkerDistribution::describeWorker(int index, const QString &role) const
{
    const WorkerStatus &w = m_workers[static_cast<size_t>(index)];
    const QString cpu = w.cpuNs >= 0 ? tr("%1 s on a CPU (kernel), %2 % of a CPU")
                                           .arg(secondsText(static_cast<double>(w.cpuNs) / 1e9))
                                           .arg(w.cpuPct, 0, 'f', 0)
                                     : tr("unknown");
    const double share =
        m_progress.max > 0 ? 100.0 * static_cast<double>(w.progress) / m_progress.max : 0;
    return tr("%1: worker %2 (pid %3)\nprogress: %4 %5, %6 % of the furthest\nCPU time: %7")
        .arg(role)
        .arg(index + 1)
        .arg(w.pid)
        .arg(w.progress)
        .arg(m_unit)
        .arg(share, 0, 'f', 0)
        .arg(cpu);
}

QString WorkerDistribution::toolTipAt(const QPoint &pos) const
{
    for (const Strip strip : {Strip::Progress, Strip::Cpu}) {
        const QRect r = stripRect(strip);
        if (!r.contains(pos))
            continue;
        const bool progress = strip == Strip::Progress;
        const WorkerSpread &s = progress ? m_progress : m_cpu;
        if (s.count == 0)
            return {};
        if (pos.x() < r.left() + kEndGrip)
            return describeWorker(s.lowest, progress ? tr("slowest") : tr("least CPU time"));
        if (pos.x() > r.right() - kEndGrip)
            return describeWorker(s.highest, progress ? tr("fastest") : tr("most CPU time"));
        const int bins = static_cast<int>(s.bins.size());
        const int b = std::clamp((pos.x() - r.left()) * bins / std::max(1, r.width()), 0, bins - 1);
        const double step = (s.max - s.min) / bins;
        const double from = s.min + step * b, to = from + step;
        const int n = s.bins[static_cast<size_t>(b)];
        if (progress && step <= 1)
            return tr("%n worker(s) with %1 %2", nullptr, n).arg(progressText(from), m_unit);
        if (progress)
            return tr("%n worker(s) with %1 to %2 %3", nullptr, n)
                .arg(progressText(from), progressText(to), m_unit);
        const bool ms = s.max < 1;
        return (ms ? tr("%n worker(s) with %1 to %2 ms of CPU time", nullptr, n)
                   : tr("%n worker(s) with %1 to %2 s of CPU time", nullptr, n))
            .arg(cpuText(from, ms), cpuText(to, ms));
    }
    return {};
}

bool WorkerDistribution::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace latprobe
