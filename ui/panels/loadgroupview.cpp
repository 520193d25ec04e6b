#include "loadgroupview.h"

#include "workerbars.h"
#include "workerdistribution.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace latprobe {

namespace {

QString describe(const LoadSpec &spec)
{
    QStringList parts;
    parts << (spec.ownSession ? QObject::tr("own session") : QObject::tr("same session"));
    if (spec.sched.nice)
        parts << QObject::tr("nice %1").arg(spec.sched.nice);
    if (spec.sched.policy != SchedPolicy::Other)
        parts << QString::fromLatin1(toString(spec.sched.policy));
    if (!spec.sched.cpus.empty())
        parts << QObject::tr("CPUs %1").arg(QString::fromStdString(formatCpuList(spec.sched.cpus)));
    for (const auto &[key, value] : spec.params)
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(key),
                                             QString::fromStdString(value));
    return parts.join(QStringLiteral(", "));
}

} // namespace

LoadGroupView::LoadGroupView(const GroupStatus &status, QWidget *parent)
    : QFrame(parent), m_id(status.id), m_title(new QLabel(this)),
      m_stop(new QPushButton(tr("Stop"), this)), m_bars(new WorkerBars(this)),
      m_distribution(new WorkerDistribution(this)), m_cv(new QLabel(this)),
      m_jain(new QLabel(this)), m_cpuCv(new QLabel(this)), m_cpu(new QLabel(this)),
      m_rate(new QLabel(this)), m_error(new QLabel(this))
{
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(4);

    auto *head = new QHBoxLayout;
    const QString label = QString::fromStdString(status.spec.label());
    m_title->setText(QStringLiteral("<b>%1</b> &nbsp;<small>%2</small>")
                         .arg(label.toHtmlEscaped(), describe(status.spec).toHtmlEscaped()));
    m_title->setToolTip(QString::fromStdString(status.spec.toString()));
    m_title->setTextFormat(Qt::RichText);
    head->addWidget(m_title, 1);
    m_stop->setToolTip(tr("Kill this group's workers now"));
    m_stop->setAccessibleName(tr("Stop %1").arg(label));
    head->addWidget(m_stop);
    layout->addLayout(head);
    layout->addWidget(m_bars);
    layout->addWidget(m_distribution);
    m_distribution->hide();

    auto *stats = new QHBoxLayout;
    stats->setSpacing(14);
    m_cv->setToolTip(tr("Progress fairness: coefficient of variation of the workers' progress, "
                        "standard deviation ÷ mean.\n0 % is perfectly even; ocbench's and "
                        "massive_intr's fairness figure."));
    m_jain->setToolTip(tr("Progress fairness: Jain's index of the workers' progress, "
                          "(Σx)² ÷ (n·Σx²).\n1 is perfectly fair; 1/n means one worker got "
                          "everything."));
    m_cpuCv->setToolTip(tr("CPU-time fairness: coefficient of variation of the CPU time the "
                           "kernel gave each worker (max/min and Jain beside it).\nEven CPU "
                           "time with uneven progress: the CPUs differ, not the scheduler's "
                           "share."));
    m_cpu->setToolTip(tr("CPU time the group's workers got, as a share of the whole machine, "
                         "since the group started."));
    m_rate->setToolTip(tr("Work done by all workers together per second (in the load's unit)."));
    // Two lines: progress, then the kernel's CPU time; on one they needed a
    // horizontal scroll bar in a 500 px column.
    for (QLabel *l : {m_cv, m_jain, m_rate})
        stats->addWidget(l);
    stats->addStretch();
    layout->addLayout(stats);
    auto *cpuStats = new QHBoxLayout;
    cpuStats->setSpacing(14);
    for (QLabel *l : {m_cpuCv, m_cpu})
        cpuStats->addWidget(l);
    cpuStats->addStretch();
    layout->addLayout(cpuStats);
    m_error->setWordWrap(true);
    m_error->hide();
    layout->addWidget(m_error);
    connect(m_stop, &QPushButton::clicked, this, [this] { emit stopRequested(m_id); });
    setStatus(status);
}

void LoadGroupView::setStatus(const GroupStatus &s)
{
    if (s.sampledAt == m_sampledAt)
        return; // the sampler reads once a second; the panel looks twice
    m_sampledAt = s.sampledAt;
    const QString unit = QString::fromStdString(s.unit);
    const bool bars = s.workers.size() <= kMaxBars;
    if (bars)
        m_bars->setWorkers(s.workers, unit);
    else
        m_distribution->setWorkers(s.workers, unit);
    if (m_bars->isHidden() == bars) {
        m_bars->setVisible(bars);
        m_distribution->setVisible(!bars);
    }
    const Fairness &f = s.fairness;
    auto set = [](QLabel *l, const QString &t) {
        if (l->text() != t)
            l->setText(t);
    };
    set(m_cv, tr("Progress CV %1 %").arg(f.cvPct, 0, 'f', f.cvPct < 10 ? 1 : 0));
    set(m_jain, tr("Jain %1").arg(f.jain, 0, 'f', 3));
    const Fairness &c = s.cpuFairness;
    set(m_cpuCv, c.workers > 0 ? tr("CPU time CV %1 %, max/min %2, Jain %3")
                                     .arg(c.cvPct, 0, 'f', c.cvPct < 10 ? 1 : 0)
                                     .arg(c.maxOverMin, 0, 'f', 2)
                                     .arg(c.jain, 0, 'f', 3)
                               : tr("CPU time unknown"));
    set(m_cpu, tr("CPU %1 %").arg(s.cpuSharePct, 0, 'f', 0));
    set(m_rate, tr("%1 %2/s").arg(compactCount(s.throughputPerS), unit));
    if (!s.error.empty()) {
        m_error->setText(tr("Worker error: %1").arg(QString::fromStdString(s.error)));
        m_error->show();
    }
}

void LoadGroupView::setStopping()
{
    m_stop->setEnabled(false);
    m_stop->setText(tr("Stopping…"));
}

} // namespace latprobe
