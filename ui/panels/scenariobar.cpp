#include "scenariobar.h"

#include "sessionobserver.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

#include <cmath>

namespace latprobe {

ScenarioBar::ScenarioBar(QWidget *parent)
    : QFrame(parent), m_label(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_save(new QPushButton(this)),
      m_close(new QToolButton(this))
{
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_label, 1);
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(220);
    m_progress->setTextVisible(true);
    m_progress->setAccessibleName(tr("scenario progress"));
    layout->addWidget(m_progress);
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_DialogCancelButton));
    m_cancel->setToolTip(tr("Stop the scenario and its loads now; the phases measured so far "
                            "stay, and its run is marked partial"));
    layout->addWidget(m_cancel);
    m_save->setText(tr("Save run…"));
    m_save->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_save->setToolTip(tr("Write the scenario's run (its steps' phases and loads) to a JSON run "
                          "file, as 'latprobe run --scenario' does"));
    layout->addWidget(m_save);
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Dismiss"));
    layout->addWidget(m_close);
    connect(m_cancel, &QPushButton::clicked, this, &ScenarioBar::cancelRequested);
    connect(m_save, &QPushButton::clicked, this, &ScenarioBar::saveRequested);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

QString ScenarioBar::minutes(double seconds)
{
    const auto s = static_cast<int64_t>(std::max(0.0, std::ceil(seconds - 1e-6)));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString ScenarioBar::elapsed(double seconds)
{
    const auto s = static_cast<int64_t>(std::max(0.0, std::floor(seconds + 1e-6)));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString ScenarioBar::measured(const Run &run)
{
    double seconds = 0;
    for (const PhaseResult &p : run.phases)
        seconds += p.durationS;
    return QStringLiteral("%1 (%2)").arg(
        elapsed(seconds),
        run.phases.size() == 1 ? tr("1 phase") : tr("%1 phases").arg(run.phases.size()));
}

void ScenarioBar::showRunning(const QString &scenario, const ScenarioProgress &p, double totalS)
{
    const QString round = p.untilDecided
                              ? tr(" (round %1 of at most %2: %3)")
                                    .arg(p.round)
                                    .arg(p.rounds)
                                    .arg(QString::fromStdString(p.decision).toHtmlEscaped())
                          : p.rounds > 1 ? tr(" (round %1 of %2)").arg(p.round).arg(p.rounds)
                                         : QString();
    QString step =
        QStringLiteral("<b>%1</b>").arg(QString::fromStdString(p.stepName).toHtmlEscaped());
    if (!p.variant.empty())
        step =
            tr("%1 under <b>%2</b>").arg(step, QString::fromStdString(p.variant).toHtmlEscaped());
    const QString text = tr("Scenario <b>%1</b> · step %2 of %3%4: %5 · %6 of %7")
                             .arg(scenario.toHtmlEscaped())
                             .arg(p.step + 1)
                             .arg(p.steps)
                             .arg(round, step, minutes(p.stepElapsedS), minutes(p.stepS));
    if (m_label->text() != text)
        m_label->setText(text);
    const int value =
        totalS > 0 ? static_cast<int>(std::lround(1000.0 * (1.0 - p.leftS / totalS))) : 0;
    m_progress->setValue(std::clamp(value, 0, 1000));
    m_progress->setFormat(tr("%1 left").arg(minutes(p.leftS)));
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_save->setVisible(false);
    m_close->setVisible(false);
    show();
}

void ScenarioBar::showEnded(const QString &text, bool canSave)
{
    m_label->setText(text);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_save->setVisible(canSave);
    m_close->setVisible(true);
    show();
}

QString ScenarioBar::text() const
{
    return m_label->text();
}

} // namespace latprobe
