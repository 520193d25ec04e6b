#include "workerbars.h"

#include "consumerstyle.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace latprobe {

WorkerBars::WorkerBars(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("One column per worker: its progress relative to the furthest one.\n"
                  "Even columns mean the workers did equal work; hover a column for the CPU\n"
                  "time the kernel gave it. Uneven columns with even CPU time: the CPUs\n"
                  "differ, not the scheduler's share."));
}

QSize WorkerBars::sizeHint() const
{
    return {200, 40};
}

QSize WorkerBars::minimumSizeHint() const
{
    return {60, 40};
}

void WorkerBars::setWorkers(const std::vector<WorkerStatus> &workers, const QString &unit)
{
    m_workers = workers;
    m_unit = unit;
    m_max = 0;
    for (const WorkerStatus &w : m_workers)
        m_max = std::max(m_max, w.progress);
    update();
}

int WorkerBars::workerAt(int x) const
{
    if (m_workers.empty() || width() <= 0)
        return -1;
    const int i = static_cast<int>(static_cast<int64_t>(x) *
                                   static_cast<int64_t>(m_workers.size()) / width());
    return std::clamp(i, 0, static_cast<int>(m_workers.size()) - 1);
}

void WorkerBars::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    const QRect r = rect();
    p.fillRect(r, pal.color(QPalette::Base));
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const int n = static_cast<int>(m_workers.size());
    if (n == 0)
        return;
    const QRect inner = r.adjusted(2, 2, -2, -2);
    const double w = static_cast<double>(inner.width()) / n;
    const double gap = w >= 5 ? std::min(3.0, w / 4) : 0;
    const QColor bar = pal.color(QPalette::Highlight);
    const QColor failed = isDarkPalette(pal) ? QColor(0xe0, 0x60, 0x50) : QColor(0xc0, 0x30, 0x20);
    for (int i = 0; i < n; ++i) {
        const WorkerStatus &ws = m_workers[i];
        const double share =
            m_max ? static_cast<double>(ws.progress) / static_cast<double>(m_max) : 0;
        const int h = std::max(ws.progress ? 1 : 0, static_cast<int>(share * inner.height()));
        const QRectF column(inner.left() + i * w + gap / 2, inner.bottom() + 1 - h,
                            std::max(1.0, w - gap), h);
        p.fillRect(column, ws.state == WorkerState::Failed ? failed : bar);
    }
}

bool WorkerBars::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int i = workerAt(help->pos().x());
        if (i >= 0) {
            const WorkerStatus &w = m_workers[i];
            const double share =
                m_max ? 100.0 * static_cast<double>(w.progress) / static_cast<double>(m_max) : 0;
            const QString cpu = w.cpuNs >= 0
                                    ? tr("%1 s on a CPU (kernel), %2 % of a CPU")
                                          .arg(static_cast<double>(w.cpuNs) / 1e9, 0, 'f', 2)
                                          .arg(w.cpuPct, 0, 'f', 0)
                                    : tr("CPU time unknown");
            QToolTip::showText(help->globalPos(),
                               tr("worker %1 (pid %2)\nprogress: %3 %4, %5 % of the furthest\n"
                                  "CPU time: %6")
                                   .arg(i + 1)
                                   .arg(w.pid)
                                   .arg(w.progress)
                                   .arg(m_unit)
                                   .arg(share, 0, 'f', 0)
                                   .arg(cpu),
                               this);
            return true;
        }
    }
    return QWidget::event(event);
}

} // namespace latprobe
